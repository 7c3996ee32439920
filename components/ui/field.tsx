import type { InputHTMLAttributes, ReactNode, SelectHTMLAttributes } from "react";

const control = "mt-1 block w-full rounded-md border border-slate-300 bg-white px-2 py-1.5 text-sm shadow-sm focus:border-slate-900 focus:outline-none disabled:bg-slate-100";

/** A labelled input; the label wraps the control so it is named for screen readers and tests. */
export function TextField({ label, hint, ...props }: InputHTMLAttributes<HTMLInputElement> & { label: string; hint?: ReactNode }) {
  return (
    <label className="block text-sm font-medium text-slate-700">
      {label}
      <input className={control} {...props} />
      {hint ? <span className="mt-1 block text-xs font-normal text-slate-500">{hint}</span> : null}
    </label>
  );
}

export function SelectField({ label, options, ...props }: SelectHTMLAttributes<HTMLSelectElement> & { label: string; options: ReadonlyArray<{ value: string; label: string }> }) {
  return (
    <label className="block text-sm font-medium text-slate-700">
      {label}
      <select className={control} {...props}>
        {options.map((option) => (
          <option key={option.value} value={option.value}>
            {option.label}
          </option>
        ))}
      </select>
    </label>
  );
}
