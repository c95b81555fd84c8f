/** Code execution is not available here, or the call cannot start (the message says why, for the model and users). */
export class SandboxUnavailable extends Error {}
