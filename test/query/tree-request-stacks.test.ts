import { describe, expect, it } from 'vitest';
import type { SyntheticSession } from './helpers/synthetic-session.js';
import { syntheticTrees } from './helpers/synthetic-trees.js';

/**
 * The stack a deployment request asks for is a candidate even when the session never ran it
 * (the runbook was declined, the session ended first): untested. One the session ran is that
 * candidate, not a second one; one the request says already runs is no lead.
 */
const NEVER_RUN: SyntheticSession = {
  id: 'syn-request-never-run',
  title: 'a runbook asking for Ollama, declined before any step',
  steps: [
    { role: 'user', text: 'Deploy node WORKHORSE for inference: set a static IP, install Ollama and FFmpeg with winget, then pull llama3.1:8b.' },
    { role: 'assistant', text: 'Checking what is there first.', calls: [{ command: 'cat status.json', output: 'cat: status.json: No such file or directory', exit: 1 }] },
    { role: 'assistant', text: 'These steps change the network and install software; tell me to go ahead and I will run them one by one.' },
  ],
};

const RAN_IT: SyntheticSession = {
  id: 'syn-request-ran',
  title: 'a request for vLLM, which then serves',
  steps: [
    { role: 'user', text: 'Please serve Qwen/Qwen2.5-7B-Instruct with vLLM on this box, port 8000.' },
    { role: 'assistant', text: 'Starting it.', calls: [{ command: 'nohup vllm serve Qwen/Qwen2.5-7B-Instruct --port 8000 > vllm.log 2>&1 &', output: '' }] },
    { role: 'assistant', text: 'Health.', calls: [{ command: 'sleep 60; curl -s -o /dev/null -w "%{http_code}" localhost:8000/health', output: '200' }] },
    { role: 'assistant', text: 'Serving.' },
  ],
};

const ALREADY_RUNS: SyntheticSession = {
  id: 'syn-request-already-runs',
  title: 'Ollama already runs; the request is for vLLM',
  steps: [
    { role: 'user', text: 'Ollama is already serving the chat UI here, so set up Qwen/Qwen2.5-7B-Instruct with vLLM on port 8001 beside it.' },
    { role: 'assistant', text: 'Starting vLLM.', calls: [{ command: 'nohup vllm serve Qwen/Qwen2.5-7B-Instruct --port 8001 > vllm.log 2>&1 &', output: '' }] },
    { role: 'assistant', text: 'Health.', calls: [{ command: 'sleep 60; curl -s -o /dev/null -w "%{http_code}" localhost:8001/health', output: '200' }] },
    { role: 'assistant', text: 'Serving on 8001.' },
  ],
};

const trees = syntheticTrees([NEVER_RUN, RAN_IT, ALREADY_RUNS], 'retrace-request-stacks-');

describe('the stacks a request asks for', () => {
  it('a stack asked for and never run is untested; the tools beside it are not candidates', () => {
    expect(trees.names('syn-request-never-run')).toEqual(['Ollama untested']);
  });

  it('a stack asked for and run is the candidate that ran, once', () => {
    const names = trees.names('syn-request-ran');
    expect(names.filter((n) => /vllm/i.test(n))).toHaveLength(1);
    expect(names.some((n) => n.endsWith(' accepted'))).toBe(true);
    expect(names.some((n) => n.endsWith(' untested'))).toBe(false);
  });

  it('a stack the request says already runs is no lead', () => {
    expect(trees.names('syn-request-already-runs').some((n) => /ollama/i.test(n))).toBe(false);
  });
});
