// The enrollment token: masked by default with a toggle to check what was pasted; surrounding
// whitespace from a copy is removed as it is pasted. Browsers must not offer to save it.
import { useId, useState } from 'react';

export function TokenField({ value, onChange }: { value: string; onChange: (token: string) => void }) {
  const [visible, setVisible] = useState(false);
  const id = useId();
  return (
    <div className="field">
      <label htmlFor={id}>Enrollment token</label>
      <div className="input-with-button">
        <input
          id={id}
          type={visible ? 'text' : 'password'}
          required
          value={value}
          placeholder="uet_…"
          autoComplete="off"
          spellCheck={false}
          data-1p-ignore=""
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
