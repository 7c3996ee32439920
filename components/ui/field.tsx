import { useId, type InputHTMLAttributes, type ReactNode, type SelectHTMLAttributes } from "react";

const control =
  "mt-1 block w-full rounded-md border border-line bg-surface px-2 py-1.5 text-sm shadow-sm focus:border-focus focus:ring-2 focus:ring-focus/40 focus:outline-none disabled:bg-surface-2";
const labelStyle = "block text-sm font-medium text-muted";

/** A labelled input; the hint is its description, not part of its name. */
export function TextField({ label, hint, ...props }: InputHTMLAttributes<HTMLInputElement> & { label: string; hint?: ReactNode }) {
  const id = useId();
  return (
    <div>
      <label htmlFor={id} className={labelStyle}>
        {label}
      </label>
      <input id={id} className={control} aria-describedby={hint ? `${id}-hint` : undefined} {...props} />
      {hint ? (
        <p id={`${id}-hint`} className="mt-1 text-xs text-muted">
          {hint}
        </p>
      ) : null}
    </div>
  );
}

export function SelectField({
  label,
  options,
  ...props
}: SelectHTMLAttributes<HTMLSelectElement> & { label: string; options: ReadonlyArray<{ value: string; label: string }> }) {
  const id = useId();
  return (
    <div>
      <label htmlFor={id} className={labelStyle}>
        {label}
      </label>
      <select id={id} className={control} {...props}>
        {options.map((option) => (
          <option key={option.value} value={option.value}>
            {option.label}
          </option>
        ))}
      </select>
    </div>
  );
}
