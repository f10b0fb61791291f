// Every context a plan placeholder can land in, for the injection property test: the command, and
// what a shell that runs it must print (the value arrives byte for byte, or the render refuses).

export interface InjectionContext {
  name: string;
  template: string;
  /** What running the rendered template prints for `value`. */
  expected(value: string): string;
  /** Uses a bash-only syntax (`$'…'`): not a context on a host whose login shell is dash. */
  bashOnly?: boolean;
}

/** `$( … )` drops trailing newlines, as every shell does: that is the context, not an injection. */
const trimmed = (value: string): string => value.replace(/\n+$/, '');

export const INJECTION_CONTEXTS: readonly InjectionContext[] = [
  { name: 'bare', template: `printf '%s' {{ v }}`, expected: (v) => v },
  { name: 'double', template: `printf '%s' "<{{ v }}>"`, expected: (v) => `<${v}>` },
  { name: 'single', template: `printf '%s' '<{{ v }}>'`, expected: (v) => `<${v}>` },
  { name: 'ansi', template: `printf '%s' $'<{{ v }}>'`, expected: (v) => `<${v}>`, bashOnly: true },
  { name: 'substitution in double', template: `printf '%s' "$( printf '%s' "{{ v }}" )"`, expected: trimmed },
  { name: 'nested substitutions', template: `printf '%s' "$(printf '%s' "$(printf '%s' '{{ v }}')")"`, expected: trimmed },
  { name: 'unquoted here-document', template: `cat <<EOF\n<{{ v }}>\nEOF`, expected: (v) => `<${v}>\n` },
  { name: 'quoted here-document', template: `cat <<'EOF'\n<{{ v }}>\nEOF`, expected: (v) => `<${v}>\n` },
  { name: 'substitution in a here-document', template: `cat <<EOF\n$(printf '%s' "{{ v }}")\nEOF`, expected: (v) => `${trimmed(v)}\n` },
  { name: 'bash -c "…"', template: `bash -c "printf '%s' {{ v }}"`, expected: (v) => v },
  { name: "sh -c '…'", template: `sh -c 'printf "%s" "{{ v }}"'`, expected: (v) => v },
  { name: 'bash -c in a substitution', template: `printf '%s' "$(bash -c "printf '%s' \\"{{ v }}\\"")"`, expected: trimmed },
  { name: 'eval', template: `eval "printf '%s' {{ v }}"`, expected: (v) => v },
];
