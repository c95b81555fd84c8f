import { useModels } from "../lib/catalogue.js";

/** The catalogue's models this server can call, as a labelled select; `none` labels an empty first choice when given. */
export function ModelSelect({
  value,
  onChange,
  none,
}: {
  value: string;
  onChange(model: string): void;
  none?: string;
}) {
  const models = useModels();
  return (
    <label>
      Model
      <select aria-label="Model" value={value} onChange={(e) => onChange(e.target.value)}>
        {none !== undefined && <option value="">{none}</option>}
        {(models.data ?? [])
          .filter((m) => m.available)
          .map((m) => (
            <option key={m.id} value={m.id}>
              {m.id}
            </option>
          ))}
      </select>
    </label>
  );
}
