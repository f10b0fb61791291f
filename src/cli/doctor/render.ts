import { renderTable } from '../format/table.js';
import type { DoctorReport, LocationFinding } from './judge.js';

/** `claude 2.1.78 ×3, 2.1.86`: versions grouped by agent, as the files state them. */
function versionsText(location: LocationFinding): string {
  const byAgent = new Map<string, string[]>();
  for (const seen of location.versions) {
    const text = `${seen.version ?? '(unstated)'}${seen.standing === 'newer' ? ' (newer than known)' : ''}${seen.sources > 1 ? ` ×${seen.sources}` : ''}`;
    byAgent.set(seen.agent, [...(byAgent.get(seen.agent) ?? []), text]);
  }
  return [...byAgent].map(([agent, versions]) => `${agent} ${versions.join(', ')}`).join('; ');
}

function formatsText(location: LocationFinding): string {
  return Object.entries(location.formats).map(([format, n]) => `${format} ${n}`).join(', ');
}

function unknownText(location: LocationFinding): string {
  const kinds = Object.entries(location.unknownByKind).sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]));
  return kinds.length === 0 ? '' : kinds.slice(0, 4).map(([kind, n]) => `${kind} ${n}`).join(', ') + (kinds.length > 4 ? ` +${kinds.length - 4} kinds` : '');
}

/** The report as text: one table of locations, then the store, rules, tools, and what to do. Pure. */
export function renderDoctor(report: DoctorReport): string {
  const out: string[] = ['Transcripts'];
  out.push(
    renderTable(
      ['status', 'location', 'agent', 'formats', 'files', 'sessions', 'messages'],
      report.locations.map((location) => ({
        status: location.status,
        location: location.path,
        agent: location.agent ?? (location.given ? 'given' : 'any'),
        formats: formatsText(location),
        files: location.status === 'not found' ? '' : location.files,
        sessions: location.status === 'not found' ? '' : location.sessions,
        messages: location.status === 'not found' ? '' : location.messages,
      })),
      { maxCellWidth: 72, alignRight: new Set(['files', 'sessions', 'messages']) },
    ),
  );
  for (const location of report.locations.filter((l) => l.versions.length > 0 || Object.keys(l.unknownByKind).length > 0)) {
    out.push(`  ${location.path}`);
    if (location.versions.length > 0) out.push(`    versions: ${versionsText(location)}`);
    for (const db of location.databases) out.push(`    ${db.file}: opencode.db of ${db.generation} (${db.generation === '2.x' ? 'session_v2 and session_message beside the 1.x tables' : 'session, message, part'})`);
    const unknown = unknownText(location);
    if (unknown) out.push(`    unknown records: ${unknown}`);
  }
  const { store } = report;
  out.push('', `Store  ${store.path}`);
  if (!store.exists) out.push('  not created yet');
  else if (store.failure) out.push(`  cannot be read: ${store.failure}`);
  else {
    const agents = Object.entries(store.sessionsByAgent).map(([agent, n]) => `${agent} ${n}`).join(', ') || 'none';
    out.push(`  schema ${store.schemaVersion ?? '?'} (this retrace: ${store.latestSchemaVersion}); sessions: ${agents}`);
    out.push(`  derive failures ${store.deriveFailures.length}; never derived ${store.underived.length}; derived by other rules ${store.derivedByOtherRules}`);
  }
  out.push('', `Rules  ${report.rules.folders.join(', ')}: ${report.rules.problems.length === 0 ? 'every file loads' : `${report.rules.problems.length} problem(s)`}`);
  out.push('', 'Tools');
  for (const tool of report.tools) out.push(`  ${tool.name.padEnd(17)}${tool.path ?? 'not found'}`);
  if (report.notes.length > 0) {
    out.push('', 'Notes');
    for (const note of report.notes) out.push(`  - ${note}`);
  }
  out.push('');
  if (report.attention.length === 0) out.push('All is well: nothing needs attention.');
  else {
    out.push(`Needs attention (${report.attention.length}):`);
    for (const [i, item] of report.attention.entries()) out.push(`  ${i + 1}. ${item.where}: ${item.problem}`, `     → ${item.fix}`);
  }
  return out.join('\n');
}
