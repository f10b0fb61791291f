/**
 * A redaction rule, in the shape of a gitleaks `[[rules]]` table: an id (the kind the marker
 * names), a description, keywords (a cheap literal prefilter: the expression runs only near one of
 * them) and the expression, plus what to keep (an allowlist). Rules are data: adding a kind of
 * secret is adding an entry, and `test/ingest/redact-rules.test.ts` checks each rule's examples.
 */
export interface SecretRule {
  /** The kind, as the marker shows it: `[REDACTED:huggingface-token]`. */
  id: string;
  description: string;
  /**
   * Literals, compared without regard to case, of which every match contains at least one (or
   * follows one, with `afterKeyword`). The expression runs only in a window around each
   * occurrence, as wide as its longest match.
   */
  keywords: readonly string[];
  /** A JavaScript regular expression; every quantifier bounded (`{0,256}`, never `*` or `+`). */
  regex: string;
  /** Letters match in either case. */
  caseInsensitive?: boolean;
  /** Capture groups that hold the secret, the first that took part wins; none = the whole match. */
  secretGroups?: readonly number[];
  /** Capture groups with the name the value is given (the first that took part), and how it is judged. */
  name?: { groups: readonly number[]; kind: 'variable' | 'flag' | 'header' };
  /** One of these literals must occur within `within` characters of the match (a Secret's `kind: Secret`). */
  near?: { literals: readonly string[]; within: number };
  /**
   * The match comes after one of the keywords (the command word: `curl`, `mysql`), at most
   * `within` characters on, in the same command (no newline, `;` or `|` between); the keyword is
   * not part of the match.
   */
  afterKeyword?: { within: number };
  /**
   * `literal`: the value must be a literal, not a reference, placeholder, code or path (generic
   * rules); `shape`: the match is the secret unless it is a placeholder (vendor shapes).
   */
  values: 'literal' | 'shape';
  /** Secrets (the captured text) that are not secrets after all. */
  allowlist?: { regexes?: readonly string[] };
  /** Inside the captured text, group 1 of every match of this expression is a secret of its own. */
  each?: string;
  /** The captured region goes on over the following lines indented deeper than the matched one. */
  block?: 'indented';
  /** Texts that must lose a secret to this rule (`secret` is what must go), and texts it must keep. */
  examples: { text: string; secret: string }[];
  counterExamples?: string[];
}
