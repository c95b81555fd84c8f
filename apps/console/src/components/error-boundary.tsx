import { Component, type ReactNode } from "react";

/** A page that throws while rendering shows what failed, instead of a blank window. */
export class ErrorBoundary extends Component<{ children: ReactNode; resetKey: string }, { error: Error | undefined }> {
  override state: { error: Error | undefined } = { error: undefined };

  static getDerivedStateFromError(error: Error) {
    return { error };
  }

  override componentDidUpdate(previous: { resetKey: string }) {
    if (previous.resetKey !== this.props.resetKey && this.state.error) this.setState({ error: undefined });
  }

  override render() {
    if (this.state.error) {
      return (
        <div role="alert" className="error">
          <h2>This page failed to render</h2>
          <pre>{this.state.error.message}</pre>
        </div>
      );
    }
    return this.props.children;
  }
}
