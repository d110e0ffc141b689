// An error and its cause in one line, for reports: `fetch failed (connect ECONNREFUSED 127.0.0.1:4010)`.

export const errorText = (error: unknown): string => {
  if (!(error instanceof Error)) return String(error);
  const cause = error.cause instanceof Error ? ` (${error.cause.message})` : '';
  return `${error.message}${cause}`;
};
