import { useBuiltinTools } from "../../lib/catalogue.js";
import { type CustomToolDraft, type ParamDraft, schemaOf } from "./draft.js";

const PARAM_TYPES: ParamDraft["type"][] = ["string", "number", "integer", "boolean", "array", "object"];

/**
 * The agent's tools without JSON: a checkbox per built-in tool (with what it does), and custom tools — run by your
 * backend — as a name, a description and a list of parameters (the JSON Schema is written from them; a schema the
 * rows cannot express is edited as JSON).
 */
export function ToolsEditor({
  builtins,
  custom,
  onBuiltins,
  onCustom,
}: {
  builtins: string[];
  custom: CustomToolDraft[];
  onBuiltins(names: string[]): void;
  onCustom(tools: CustomToolDraft[]): void;
}) {
  const tools = useBuiltinTools();
  const setTool = (index: number, patch: Partial<CustomToolDraft>) =>
    onCustom(custom.map((tool, i) => (i === index ? { ...tool, ...patch } : tool)));
  return (
    <>
      <fieldset className="group">
        <legend>Built-in tools</legend>
        <div className="choices">
          {(tools.data ?? []).map((tool) => (
            <label key={tool.name}>
              <input
                type="checkbox"
                checked={builtins.includes(tool.name)}
                onChange={(e) =>
                  onBuiltins(e.target.checked ? [...builtins, tool.name] : builtins.filter((n) => n !== tool.name))
                }
              />
              <span>
                <code>{tool.name}</code> <span className="muted small">{tool.description}</span>
              </span>
            </label>
          ))}
        </div>
      </fieldset>
      <fieldset className="group">
        <legend>Custom tools (answered by your backend)</legend>
        {custom.map((tool, index) => (
          // biome-ignore lint/suspicious/noArrayIndexKey: tools are edited in place; a key that changes would lose focus
          <div key={index} className="custom-tool">
            <div className="inline-form">
              <label>
                Name
                <input
                  aria-label={`Custom tool ${index + 1} name`}
                  value={tool.name}
                  onChange={(e) => setTool(index, { name: e.target.value })}
                />
              </label>
              <label className="grow">
                Description (what the model reads)
                <input
                  aria-label={`Custom tool ${index + 1} description`}
                  value={tool.description}
                  onChange={(e) => setTool(index, { description: e.target.value })}
                />
              </label>
              <button type="button" onClick={() => onCustom(custom.filter((_, i) => i !== index))}>
                Remove tool
              </button>
            </div>
            {tool.schemaJson === undefined ? (
              <ParamsEditor toolIndex={index} params={tool.params} onChange={(params) => setTool(index, { params })} />
            ) : (
              <label className="block">
                Input schema (JSON Schema of an object)
                <textarea
                  className="code"
                  rows={6}
                  value={tool.schemaJson}
                  onChange={(e) => setTool(index, { schemaJson: e.target.value })}
                />
              </label>
            )}
            {tool.schemaJson === undefined && (
              <button
                type="button"
                className="link small"
                onClick={() => setTool(index, { schemaJson: JSON.stringify(schemaOf(tool.params), null, 2) })}
              >
                Edit the schema as JSON
              </button>
            )}
          </div>
        ))}
        <button type="button" onClick={() => onCustom([...custom, { name: "", description: "", params: [] }])}>
          Add custom tool
        </button>
      </fieldset>
    </>
  );
}

function ParamsEditor({
  toolIndex,
  params,
  onChange,
}: {
  toolIndex: number;
  params: ParamDraft[];
  onChange(params: ParamDraft[]): void;
}) {
  const set = (index: number, patch: Partial<ParamDraft>) =>
    onChange(params.map((p, i) => (i === index ? { ...p, ...patch } : p)));
  const name = (index: number) => `Custom tool ${toolIndex + 1} parameter ${index + 1}`;
  return (
    <div className="rows-editor">
      <span className="muted small">Parameters (the tool's input: name, type, what it is)</span>
      {params.map((param, index) => (
        // biome-ignore lint/suspicious/noArrayIndexKey: rows are edited in place; a key that changes would lose focus
        <div key={index} className="editor-row">
          <input
            aria-label={`${name(index)} name`}
            placeholder="parameter"
            value={param.name}
            onChange={(e) => set(index, { name: e.target.value })}
          />
          <select
            aria-label={`${name(index)} type`}
            value={param.type}
            onChange={(e) => set(index, { type: e.target.value as ParamDraft["type"] })}
          >
            {PARAM_TYPES.map((type) => (
              <option key={type} value={type}>
                {type}
              </option>
            ))}
          </select>
          <input
            aria-label={`${name(index)} description`}
            placeholder="description"
            value={param.description}
            onChange={(e) => set(index, { description: e.target.value })}
          />
          <label className="inline small">
            <input
              type="checkbox"
              checked={param.required}
              onChange={(e) => set(index, { required: e.target.checked })}
            />{" "}
            required
          </label>
          <button
            type="button"
            aria-label={`Remove ${name(index)}`}
            onClick={() => onChange(params.filter((_, i) => i !== index))}
          >
            Remove
          </button>
        </div>
      ))}
      <div>
        <button
          type="button"
          onClick={() => onChange([...params, { name: "", type: "string", description: "", required: false }])}
        >
          Add parameter
        </button>
      </div>
    </div>
  );
}
