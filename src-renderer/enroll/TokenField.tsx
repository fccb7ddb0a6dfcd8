// The enrollment token: masked by default with a toggle to check what was pasted; surrounding
// whitespace from a copy is removed as it is pasted. Browsers must not offer to save it.
import { useId, useState } from 'react';

export function TokenField({
  value,
  onChange,
  inputProps,
}: {
  value: string;
  onChange: (token: string) => void;
  inputProps?: { id?: string; 'aria-invalid'?: true; 'aria-describedby'?: string };
}) {
  const [visible, setVisible] = useState(false);
  const generated = useId();
  const id = inputProps?.id ?? generated;
  return (
    <div className="field">
      <label htmlFor={id}>Enrollment token</label>
      <div className="input-with-button">
        <input
          type={visible ? 'text' : 'password'}
          required
          value={value}
          placeholder="uet_…"
          autoComplete="off"
          spellCheck={false}
          data-1p-ignore=""
          {...inputProps}
          id={id}
          onChange={(e) => onChange(e.target.value)}
          onPaste={(e) => {
            e.preventDefault();
            onChange(e.clipboardData.getData('text').trim());
          }}
        />
        <button type="button" aria-pressed={visible} aria-controls={id} onClick={() => setVisible((v) => !v)}>
          {visible ? 'Hide' : 'Show'}
        </button>
      </div>
    </div>
  );
}
