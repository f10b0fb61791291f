/**
 * `for h in llm-a llm-b; do ssh ubuntu@$h 'docker pull X'; done` runs its body once per word: the
 * loop is read as those commands, one after another (`$h` put in each), so each host's pull is a
 * step of its own. Only a loop over plain words is unrolled (no `$( … )`, glob or variable in the
 * list, at most MAX_WORDS of them, no loop inside it, a body that uses the variable); any other
 * (a poll that repeats one check) stays as it is.
 */
const MAX_WORDS = 8;
const FOR_LOOP = /\bfor\s+([A-Za-z_][A-Za-z0-9_]*)\s+in\s+([^;\n]*?)\s*(?:;|\n)\s*do\b([\s\S]*?)(?:;|\n|&)?\s*\bdone\b/g;
const PLAIN_WORD = /^[\w.@:/+-]+$/;

export function unrollForLoops(script: string): string {
  if (!script.includes('for ')) return script;
  return script.replace(FOR_LOOP, (whole: string, name: string, list: string, body: string) => {
    const words = list.trim().split(/\s+/).map((w) => w.replace(/^(["'])(.*)\1$/, '$2'));
    if (words.length === 0 || words.length > MAX_WORDS || !words.every((w) => PLAIN_WORD.test(w)) || /\b(?:for|while|until|do)\b/.test(body)) return whole;
    const background = /&\s*$/.test(whole.replace(/\bdone\b\s*$/, '').trimEnd());
    const variable = new RegExp(String.raw`\$\{${name}\}|\$${name}(?![A-Za-z0-9_])`, 'g');
    // A body that never uses its variable repeats one command (a poll): it stays one command.
    if (!new RegExp(variable.source).test(body)) return whole;
    return words.map((word) => `${body.trim().replace(/[;&]\s*$/, '').replace(variable, word)}${background ? ' &' : ''}`).join('\n');
  });
}
