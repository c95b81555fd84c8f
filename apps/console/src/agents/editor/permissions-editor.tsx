import type { AgentDraft } from "./draft.js";

type Permission = AgentDraft["permissions"][number];

/**
 * Which tools ask before they run: a row per tool (one of the agent's, or any name — MCP tools are `<server>__<tool>`)
 * with its policy. Tools without a row keep their origin's default (built-in: run; MCP: ask).
 */
export function PermissionsEditor({
  permissions,
  toolNames,
  onChange,
}: {
  permissions: Permission[];
  toolNames: string[];
  onChange(permissions: Permission[]): void;
}) {
  const set = (index: number, patch: Partial<Permission>) =>
    onChange(permissions.map((p, i) => (i === index ? { ...p, ...patch } : p)));
  const unused = toolNames.filter((name) => !permissions.some((p) => p.tool === name));
  return (
    <div className="rows-editor">
      <datalist id="agent-tool-names">
        {toolNames.map((name) => (
          <option key={name} value={name} />
        ))}
      </datalist>
      {permissions.map((permission, index) => (
        // biome-ignore lint/suspicious/noArrayIndexKey: rows are edited in place; a key that changes would lose focus
        <div key={index} className="editor-row">
          <input
            aria-label={`Tool of permission ${index + 1}`}
            list="agent-tool-names"
            placeholder="tool name"
            value={permission.tool}
            onChange={(e) => set(index, { tool: e.target.value })}
          />
          <select
            aria-label={`Policy of permission ${index + 1}`}
            value={permission.policy}
            onChange={(e) => set(index, { policy: e.target.value as Permission["policy"] })}
          >
            <option value="always_ask">ask me first</option>
            <option value="always_allow">run without asking</option>
          </select>
          <button
            type="button"
            aria-label={`Remove permission ${index + 1}`}
            onClick={() => onChange(permissions.filter((_, i) => i !== index))}
          >
            Remove
          </button>
        </div>
      ))}
      <div>
        <button
          type="button"
          onClick={() => onChange([...permissions, { tool: unused[0] ?? "", policy: "always_ask" }])}
        >
          Add permission
        </button>
      </div>
    </div>
  );
}
