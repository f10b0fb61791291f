import type { Prng } from '../../lib/prng.js';
import type { Fleet, FleetHost } from '../story/catalog.js';

/** What the hosts print: GPU state, disks, links, Ray. */

export function nvidiaSmi(prng: Prng, fleet: Fleet, usedMiB: (index: number) => number, processes: readonly string[]): string {
  const gpu = fleet.gpu;
  const lines = [
    `${new Date(Date.UTC(2026, 1, prng.int(1, 28), prng.int(0, 23), prng.int(0, 59), prng.int(0, 59))).toUTCString()}`,
    '+-----------------------------------------------------------------------------------------+',
    `| NVIDIA-SMI ${gpu.driver}              Driver Version: ${gpu.driver}      CUDA Version: 13.0     |`,
    '+-----------------------------------------+------------------------+----------------------+',
    '| GPU  Name                 Persistence-M | Bus-Id          Disp.A | Volatile Uncorr. ECC |',
    '| Fan  Temp   Perf          Pwr:Usage/Cap |           Memory-Usage | GPU-Util  Compute M. |',
    '|                                         |                        |               MIG M. |',
    '|=========================================+========================+======================|',
  ];
  for (let index = 0; index < gpu.count; index += 1) {
    const used = usedMiB(index);
    lines.push(
      `|   ${index}  ${gpu.name.padEnd(24).slice(0, 24)}      On  |   0000000${index}:0F:00.0 Off |                    0 |`,
      `| N/A   ${prng.int(31, 74)}C    P${prng.pick([0, 0, 2, 8])}    ${String(prng.int(12, 690)).padStart(3)}W / ${gpu.count > 1 ? 700 : 140}W  | ${String(used).padStart(6)}MiB / ${gpu.memoryMiB}MiB | ${String(prng.int(0, 100)).padStart(5)}%      Default |`,
      '|                                         |                        |             Disabled |',
      '+-----------------------------------------+------------------------+----------------------+',
    );
  }
  lines.push(
    '',
    '+-----------------------------------------------------------------------------------------+',
    '| Processes:                                                                              |',
    '|  GPU   GI   CI              PID   Type   Process name                        GPU Memory |',
    '|        ID   ID                                                               Usage      |',
    '|=========================================================================================|',
  );
  if (processes.length === 0) lines.push('|  No running processes found                                                             |');
  for (const name of processes) {
    lines.push(`|    0   N/A  N/A          ${String(prng.int(1000, 99999)).padStart(7)}      C   ${name.padEnd(34).slice(0, 34)}  ${String(prng.int(400, 60000)).padStart(7)}MiB |`);
  }
  lines.push('+-----------------------------------------------------------------------------------------+');
  return `${lines.join('\n')}\n`;
}

export function dfOutput(prng: Prng): string {
  const size = 3.7;
  const used = prng.int(5, 14) / 10;
  return `Filesystem      Size  Used Avail Use% Mounted on\n/dev/nvme0n1p2  ${size}T  ${used.toFixed(1)}T  ${(size - used).toFixed(1)}T  ${Math.round((used / size) * 100)}% /\n`;
}

export function linkOutput(fleet: Fleet, host: FleetHost): string {
  return `${fleet.iface.padEnd(16)} UP             ${host.linkAddress}/24 fe80::5a3c:c6ff:fe1e:${host.address.split('.').pop()}/64\n${fleet.hca} port 1 ==> ${fleet.iface} (Up)\n`;
}

export function pingOutput(prng: Prng, from: FleetHost, to: FleetHost, iface: string): string {
  const times = [0, 1, 2].map(() => (prng.skewed(0.18, 0.3)).toFixed(3));
  return [
    `PING ${to.linkAddress} (${to.linkAddress}) from ${from.linkAddress} ${iface}: 56(84) bytes of data.`,
    ...times.map((t, i) => `64 bytes from ${to.linkAddress}: icmp_seq=${i + 1} ttl=64 time=${t} ms`),
    '',
    `--- ${to.linkAddress} ping statistics ---`,
    '3 packets transmitted, 3 received, 0% packet loss, time 2043ms',
    `rtt min/avg/max/mdev = ${times[0]}/${times[1]}/${times[2]}/0.021 ms`,
    '',
  ].join('\n');
}

export function rayStatus(prng: Prng, fleet: Fleet): string {
  const nodes = fleet.hosts.map(() => ` 1 node_${prng.hex(56)}`);
  return [
    `======== Autoscaler status: 2026-02-${prng.int(10, 28)} ${prng.int(10, 23)}:${prng.int(10, 59)}:${prng.int(10, 59)}.${prng.int(100000, 999999)} ========`,
    'Node status',
    '---------------------------------------------------------------',
    'Active:',
    ...nodes,
    'Pending:',
    ' (no pending nodes)',
    'Recent failures:',
    ' (no failures)',
    '',
    'Resources',
    '---------------------------------------------------------------',
    'Usage:',
    ` 0.0/${fleet.hosts.length * 20}.0 CPU`,
    ` 0.0/${fleet.hosts.length * fleet.gpu.count}.0 GPU`,
    ` 0B/${(fleet.hosts.length * 96.4).toFixed(2)}GiB memory`,
    ` 0B/${(fleet.hosts.length * 41.3).toFixed(2)}GiB object_store_memory`,
    '',
    'Demands:',
    ' (no resource demands)',
    '',
  ].join('\n');
}

export function systemctlUnits(prng: Prng, units: readonly string[]): string {
  return `${units.map((u) => `  ${`${u}.service`.padEnd(26)}loaded active running ${u.replace(/-/g, ' ')} (port ${prng.int(8000, 8100)})`).join('\n')}\n`;
}
