/** A repository permission, weakest first: what a member holds on a repository and what an operation or a job kind needs. */
export type RepoLevel = "read" | "write" | "admin";
