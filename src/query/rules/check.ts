import { classifyCommands } from '../classify/classify-call.js';
import { scanSignatures } from '../classify/signatures.js';
import { parseCommandLine } from '../shell/index.js';
import { compileComponent, compileFramework, compileSignature, namesFramework, type RuleSet } from './compile.js';
import type { RuleProblem } from './load.js';
import type { RuleFile } from './schema.js';

/**
 * A rule file's examples, checked: every `match` example must match and every `no_match` must not,
 * for each signature, version fact, launcher and the framework's names. Run against the whole rule
 * set in force, so a line another signature claims first is reported too.
 */

function problem(file: string, message: string): RuleProblem {
  return { file, line: null, message };
}

function checkSignatures(path: string, rule: RuleFile, rules: RuleSet): RuleProblem[] {
  const problems: RuleProblem[] = [];
  for (const signature of rule.signatures) {
    const compiled = compileSignature(signature, path);
    const kind = signature.decides[0] ?? 'other';
    if (signature.examples.match.length === 0) problems.push(problem(path, `signature ${signature.id}: no example it must match`));
    for (const line of signature.examples.match) {
      if (!compiled.pattern.test(line)) {
        problems.push(problem(path, `signature ${signature.id}: does not match its example ${JSON.stringify(line)}`));
        continue;
      }
      if (!compiled.keywords.some((k) => line.toLowerCase().includes(k))) {
        problems.push(problem(path, `signature ${signature.id}: its example ${JSON.stringify(line)} holds none of its keywords, so it is never tried`));
        continue;
      }
      const hits = scanSignatures(line, kind, rules);
      const claimed = hits[0];
      // A line several stacks print alike (`Uvicorn running on`) may be claimed by any of them that reads it the same way.
      const sameMeaning = claimed && claimed.effect === signature.effect && compiled.labels.includes(claimed.label);
      if (claimed && claimed.name !== signature.id && !sameMeaning) problems.push(problem(path, `signature ${signature.id}: its example ${JSON.stringify(line)} is read first as ${claimed.name} (lower priority number)`));
    }
    for (const line of signature.examples.no_match) {
      if (compiled.pattern.test(line)) problems.push(problem(path, `signature ${signature.id}: matches ${JSON.stringify(line)}, which it must not`));
    }
  }
  return problems;
}

function checkVersions(path: string, rule: RuleFile): RuleProblem[] {
  const problems: RuleProblem[] = [];
  for (const version of rule.versions) {
    const compiled = compileComponent(version, path, rule.kind === 'generic');
    if (version.examples.match.length === 0) problems.push(problem(path, `version ${version.component}: no example it must match`));
    for (const line of version.examples.match) {
      const found = compiled.pattern.exec(line);
      if (!found || !(found.slice(1).find((g) => g !== undefined))) problems.push(problem(path, `version ${version.component}: reads no version from ${JSON.stringify(line)}`));
    }
    for (const line of version.examples.no_match) {
      if (compiled.pattern.test(line)) problems.push(problem(path, `version ${version.component}: reads a version from ${JSON.stringify(line)}, which it must not`));
    }
  }
  return problems;
}

function launchedFramework(commandLine: string, ruleName: string): string | null {
  const classified = classifyCommands(parseCommandLine(commandLine), 'bash');
  return classified.find((c) => c.match.rule === ruleName)?.match.framework ?? null;
}

function checkLaunchers(path: string, rule: RuleFile): RuleProblem[] {
  const problems: RuleProblem[] = [];
  const lists = [
    { launchers: rule.launch, ruleName: 'serve-launcher', what: 'launcher', reading: 'a launch' },
    { launchers: rule.build, ruleName: 'engine-build', what: 'build step', reading: 'a build' },
    { launchers: rule.probe, ruleName: 'framework-probe', what: 'probe', reading: 'a probe' },
  ];
  for (const { launchers, ruleName, what, reading } of lists) {
    for (const [index, launcher] of launchers.entries()) {
      const name = launcher.program ?? launcher.module ?? launcher.script ?? String(index);
      for (const line of launcher.examples.match) {
        const found = launchedFramework(line, ruleName);
        if (found !== rule.id) problems.push(problem(path, `${what} ${name}: ${JSON.stringify(line)} is ${found ? `read as ${found}` : `not read as ${reading}`}`));
      }
      for (const line of launcher.examples.no_match) {
        if (launchedFramework(line, ruleName) === rule.id) problems.push(problem(path, `${what} ${name}: ${JSON.stringify(line)} is read as ${reading} of ${rule.id}, which it must not`));
      }
    }
  }
  return problems;
}

function checkNames(path: string, rule: RuleFile): RuleProblem[] {
  if (rule.kind === 'generic') return [];
  const framework = compileFramework(rule, path);
  return [
    ...rule.examples.match.filter((text) => !namesFramework(framework, text)).map((text) => problem(path, `names: ${JSON.stringify(text)} should name ${rule.label}`)),
    ...rule.examples.no_match.filter((text) => namesFramework(framework, text)).map((text) => problem(path, `names: ${JSON.stringify(text)} must not name ${rule.label}`)),
  ];
}

export function checkRuleExamples(path: string, rule: RuleFile, rules: RuleSet): RuleProblem[] {
  return [...checkNames(path, rule), ...checkSignatures(path, rule, rules), ...checkVersions(path, rule), ...checkLaunchers(path, rule)];
}

