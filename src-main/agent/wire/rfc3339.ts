// RFC 3339 (section 5.6) date-times as servers really write them: "T"/"Z" in either case, a
// ":60" leap second, any number of fraction digits (0-9 seen in practice), numeric offsets.
// The agent never reformats a server's timestamp: server_time goes back as `since` byte for
// byte, so this module only says whether a string is one.
const grammar = /^(\d{4})-(\d{2})-(\d{2})[Tt](\d{2}):(\d{2}):(\d{2})(?:\.\d+)?(?:[Zz]|[+-](\d{2}):(\d{2}))$/;

function daysInMonth(year: number, month: number): number {
  const date = new Date(0);
  date.setUTCFullYear(year, month, 0);
  return date.getUTCDate();
}

export function isRfc3339(text: string): boolean {
  const m = grammar.exec(text);
  if (m === null) return false;
  const [year, month, day, hour, minute, second] = m.slice(1, 7).map(Number) as [
    number,
    number,
    number,
    number,
    number,
    number,
  ];
  if (month < 1 || month > 12 || day < 1 || day > daysInMonth(year, month)) return false;
  if (hour > 23 || minute > 59 || second > 60) return false;
  if (m[7] !== undefined && (Number(m[7]) > 23 || Number(m[8]) > 59)) return false;
  return true;
}
