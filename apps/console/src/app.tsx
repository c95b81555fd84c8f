import { lazy, Suspense } from "react";
import { Navigate, Route, Routes, useLocation } from "react-router";
import { useAuth } from "./auth/session.js";
import { SignInPage } from "./auth/sign-in-page.js";
import { ErrorBoundary } from "./components/error-boundary.js";
import { Layout } from "./components/layout.js";
import { PageHeading } from "./components/page-heading.js";

// Each area is its own chunk: the first load carries the shell, the sign-in page and the SDK only.
const SessionList = lazy(() => import("./sessions/session-list.js"));
const SessionPage = lazy(() => import("./sessions/session-page.js"));
const AgentList = lazy(() => import("./agents/agent-list.js"));
const AgentPage = lazy(() => import("./agents/agent-page.js"));
const AgentEdit = lazy(() => import("./agents/agent-edit.js"));
const ExperimentList = lazy(() => import("./experiments/experiment-list.js"));
const ExperimentPage = lazy(() => import("./experiments/experiment-page.js"));
const NewExperiment = lazy(() => import("./experiments/new-experiment.js"));
const DatasetList = lazy(() => import("./datasets/dataset-list.js"));
const DatasetPage = lazy(() => import("./datasets/dataset-page.js"));
const AutomationList = lazy(() => import("./automations/automation-list.js"));
const AutomationPage = lazy(() => import("./automations/automation-page.js"));
const AutomationEdit = lazy(() => import("./automations/automation-edit.js"));
const WebhookList = lazy(() => import("./admin/webhook-list.js"));
const WebhookPage = lazy(() => import("./admin/webhook-page.js"));
const UsagePage = lazy(() => import("./admin/usage-page.js"));
const KnowledgeBaseList = lazy(() => import("./knowledge/knowledge-base-list.js"));
const KnowledgeBasePage = lazy(() => import("./knowledge/knowledge-base-page.js"));
const DocumentPage = lazy(() => import("./knowledge/document-page.js"));
const MemoryStoreList = lazy(() => import("./memory/memory-store-list.js"));
const MemoryStorePage = lazy(() => import("./memory/memory-store-page.js"));

export function App() {
  const { signedIn, checking } = useAuth();
  const location = useLocation();
  if (checking) return <p className="loading">Checking the stored key…</p>;
  if (!signedIn) return <SignInPage />;
  return (
    <Layout>
      <ErrorBoundary resetKey={location.pathname}>
        <Suspense fallback={<p className="loading">Loading…</p>}>
          <Routes>
            <Route path="/" element={<Navigate to="/sessions" replace />} />
            <Route path="/sessions" element={<SessionList />} />
            <Route path="/sessions/:id" element={<SessionPage />} />
            <Route path="/agents" element={<AgentList />} />
            <Route path="/agents/new" element={<AgentEdit />} />
            <Route path="/agents/:id" element={<AgentPage />} />
            <Route path="/agents/:id/edit" element={<AgentEdit />} />
            <Route path="/experiments" element={<ExperimentList />} />
            <Route path="/experiments/new" element={<NewExperiment />} />
            <Route path="/experiments/:id" element={<ExperimentPage />} />
            <Route path="/datasets" element={<DatasetList />} />
            <Route path="/datasets/:id" element={<DatasetPage />} />
            <Route path="/automations" element={<AutomationList />} />
            <Route path="/automations/new" element={<AutomationEdit />} />
            <Route path="/automations/:id" element={<AutomationPage />} />
            <Route path="/automations/:id/edit" element={<AutomationEdit />} />
            <Route path="/knowledge-bases" element={<KnowledgeBaseList />} />
            <Route path="/knowledge-bases/:id" element={<KnowledgeBasePage />} />
            <Route path="/knowledge-bases/:id/documents/:documentId" element={<DocumentPage />} />
            <Route path="/memory-stores" element={<MemoryStoreList />} />
            <Route path="/memory-stores/:id" element={<MemoryStorePage />} />
            <Route path="/usage" element={<UsagePage />} />
            {signedIn.isAdmin && <Route path="/webhooks" element={<WebhookList />} />}
            {signedIn.isAdmin && <Route path="/webhooks/:id" element={<WebhookPage />} />}
            <Route path="*" element={<NotFound />} />
          </Routes>
        </Suspense>
      </ErrorBoundary>
    </Layout>
  );
}

function NotFound() {
  return (
    <>
      <PageHeading title="Not found" />
      <p role="alert">No such page in the console.</p>
    </>
  );
}
