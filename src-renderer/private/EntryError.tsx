// One field error of a private definitions entry, in the Private view and a check's detail. The
// reader's detail usually names the field first ("url must start with …"): the field is then
// marked inside that sentence, instead of "Field url: url must start with …".
export function EntryError({ field, detail }: { field?: string | undefined; detail: string }) {
  if (field === undefined) return <>{detail}</>;
  if (detail.startsWith(`${field} `))
    return (
      <>
        <code>{field}</code>
        {detail.slice(field.length)}
      </>
    );
  return (
    <>
      Field <code>{field}</code>: {detail}
    </>
  );
}
