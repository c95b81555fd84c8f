import type { ReactNode } from "react";
import { NavLink } from "react-router";
import { useSignedIn } from "../auth/session.js";

export function Layout({ children }: { children: ReactNode }) {
  const { context, isAdmin, signOut } = useSignedIn();
  return (
    <div className="shell">
      <a href="#main" className="skip-link visually-hidden">
        Skip to the page
      </a>
      <header className="top">
        <strong className="brand">Agent Platform</strong>
        <nav aria-label="Main">
          <NavLink to="/sessions">Sessions</NavLink>
          <NavLink to="/agents">Agents</NavLink>
          <NavLink to="/experiments">Experiments</NavLink>
          <NavLink to="/datasets">Datasets</NavLink>
          <NavLink to="/automations">Automations</NavLink>
          <NavLink to="/knowledge-bases">Knowledge</NavLink>
          <NavLink to="/memory-stores">Memory</NavLink>
          <NavLink to="/usage">{isAdmin ? "Usage & budgets" : "Usage"}</NavLink>
          {isAdmin && <NavLink to="/webhooks">Webhooks</NavLink>}
        </nav>
        <span className="who" title={`key ${context.apiKey.id}`}>
          {context.project.name} · {context.apiKey.name} ({context.apiKey.role})
        </span>
        <button type="button" onClick={signOut}>
          Sign out
        </button>
      </header>
      <main className="content" id="main">
        {children}
      </main>
    </div>
  );
}
