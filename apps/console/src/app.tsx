import { lazy, Suspense } from "react";
import { Navigate, Route, Routes } from "react-router";
import { useAuth } from "./auth/session.js";
import { SignInPage } from "./auth/sign-in-page.js";
import { Layout } from "./components/layout.js";

// Each area is its own chunk: the first load carries the shell, the sign-in page and the SDK only.
const SessionList = lazy(() => import("./sessions/session-list.js"));
const SessionPage = lazy(() => import("./sessions/session-page.js"));

export function App() {
  const { signedIn, checking } = useAuth();
  if (checking) return <p className="loading">Checking the stored key…</p>;
  if (!signedIn) return <SignInPage />;
  return (
    <Layout>
      <Suspense fallback={<p className="loading">Loading…</p>}>
        <Routes>
          <Route path="/" element={<Navigate to="/sessions" replace />} />
          <Route path="/sessions" element={<SessionList />} />
          <Route path="/sessions/:id" element={<SessionPage />} />
          <Route path="*" element={<p role="alert">No such page in the console.</p>} />
        </Routes>
      </Suspense>
    </Layout>
  );
}
