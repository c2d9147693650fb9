/** Where the CLI's clients (`codesynapse mcp`, `hook`, `setup`) find the server when CODESYNAPSE_URL is not set. */
export const DEFAULT_SERVER_URL = "http://127.0.0.1:8080";
