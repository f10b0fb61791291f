import { describe, expect, it } from 'vitest';
import { fleetOf, FleetInputError } from '../../src/replay/fleet/fleet-input.js';
import { expandHostPattern, InventoryError, parseInventory } from '../../src/replay/fleet/inventory.js';

const INI = `
# a lab's inventory
[head]
spark-a ansible_host=10.0.0.1 ansible_user=aurora ansible_port=2222

[worker]
spark-[b:c] ansible_user=aurora
node[08:10]

[worker:vars]
ansible_ssh_private_key_file=~/.ssh/lab_key
ansible_port=22

[gpus:children]
worker

[laptop]
here ansible_connection=local
`;

const YAML = `
all:
  vars:
    ansible_user: ops
  children:
    head:
      hosts:
        h1:
          ansible_host: 192.0.2.10
    workers:
      children:
        worker_2:
          hosts:
            w1: { ansible_port: 2201 }
            w2:
          vars:
            ansible_private_key_file: /keys/w
`;

describe('Ansible inventories as fleets', () => {
  it('reads INI: groups, host vars, group vars, ranges, children', () => {
    const inventory = parseInventory(INI, 'lab.ini');
    expect(inventory.get('head')).toEqual([{ name: 'spark-a', vars: { ansible_host: '10.0.0.1', ansible_user: 'aurora', ansible_port: '2222' }, origin: 'lab.ini:4' }]);
    expect(inventory.get('worker')?.map((h) => h.name)).toEqual(['spark-b', 'spark-c', 'node08', 'node09', 'node10']);
    expect(inventory.get('gpus')?.length).toBe(5);
    const fleet = fleetOf([], inventory, ['head', 'worker']);
    expect(fleet['head']).toEqual([{ spec: 'aurora@10.0.0.1:2222', origin: 'lab.ini:4' }]);
    expect(fleet['worker']?.map((a) => a.spec)).toEqual(['aurora@spark-b:22', 'aurora@spark-c:22', 'node08:22', 'node09:22', 'node10:22']);
    expect(fleet['worker']?.[0]).toEqual({ spec: 'aurora@spark-b:22', identityFile: '~/.ssh/lab_key', origin: 'lab.ini:7' });
    expect(fleetOf([], inventory, ['laptop'])['laptop']).toEqual([{ spec: 'local', origin: 'lab.ini:18' }]);
  });

  it('refuses one host twice in a role, naming both places', () => {
    const twice = parseInventory('[worker]\na ansible_host=192.0.2.9\nb ansible_host=192.0.2.9\n', 'lab.ini');
    expect(() => fleetOf([], twice, ['worker'])).toThrow(FleetInputError);
    expect(() => fleetOf([], twice, ['worker'])).toThrow('worker: host 192.0.2.9 is given twice (lab.ini:2 and lab.ini:3)');
    expect(() => fleetOf(['worker=192.0.2.9'], parseInventory('[worker]\n192.0.2.9\n', 'lab.ini'), ['worker'])).toThrow('(lab.ini:2 and --host worker=192.0.2.9)');
  });

  it('reads YAML: nested children, vars inherited from all and from the group, worker_2 as the role worker-2', () => {
    const inventory = parseInventory(YAML, 'hosts.yml');
    const fleet = fleetOf([], inventory, ['head', 'worker-2']);
    expect(fleet['head']).toEqual([{ spec: 'ops@192.0.2.10', origin: 'hosts.yml (head)' }]);
    expect(fleet['worker-2']).toEqual([
      { spec: 'ops@w1:2201', identityFile: '/keys/w', origin: 'hosts.yml (worker_2)' },
      { spec: 'ops@w2', identityFile: '/keys/w', origin: 'hosts.yml (worker_2)' },
    ]);
  });

  it('adds --host to an inventory, and says what is wrong with the file and line', () => {
    const fleet = fleetOf(['worker=u@extra:2200'], parseInventory('[worker]\na\n', 'inv'), ['worker']);
    expect(fleet['worker']?.map((a) => a.spec)).toEqual(['a', 'u@extra:2200']);
    expect(() => parseInventory('[worker]\n[bad\n', 'inv.ini')).toThrow(new InventoryError('inv.ini:2: not a group header: [bad'));
    expect(() => parseInventory('all:\n  hosts: [a, b]\n', 'inv.yml')).toThrow(/inv\.yml: all\.hosts: /);
    expect(() => fleetOf([], parseInventory('[db]\nx\n', 'inv.ini'), ['head'], 'inv.ini')).toThrow(/inv.ini: no group is a role of the plan \(groups: db; roles: head\)/);
    expect(() => fleetOf(['gpu=a'], null, ['head'])).toThrow(/the plan has no role "gpu"/);
    expect(() => fleetOf(['head=local', 'head=b'], null, ['head'])).toThrow(/local runs the role on this machine/);
  });

  it('expands Ansible host ranges', () => {
    expect(expandHostPattern('n[1:3]')).toEqual(['n1', 'n2', 'n3']);
    expect(expandHostPattern('n[01:10:5]')).toEqual(['n01', 'n06']);
    expect(expandHostPattern('r[a:b]-[1:2]')).toEqual(['ra-1', 'ra-2', 'rb-1', 'rb-2']);
  });
});
