import type { Prng } from '../../lib/prng.js';
import { fateOf, FLEETS, IMAGES, MODELS, type Fleet, type ImageSpec } from './catalog.js';
import { deploymentTurns, type Deployment } from './deployment.js';
import { operationTurns } from './operations.js';
import { StepBuilder, type TurnSource } from './steps.js';
import type { SessionInfo } from './turns.js';

/** 2026-01-05T08:00:00Z: generated sessions start here and move forward. */
const EPOCH_MS = Date.UTC(2026, 0, 5, 8, 0, 0);

export interface SessionPlan {
  info: SessionInfo;
  turns: TurnSource;
}

function fleetAt(index: number): Fleet {
  const fleet = FLEETS[index];
  if (!fleet) throw new Error(`no fleet ${index}`);
  return fleet;
}

/** Rejected candidates first (in the order an agent would reach for them), a working one last. */
function planDeployment(prng: Prng, fleetIndex: number): Deployment {
  const fleet = fleetAt(fleetIndex);
  const model = prng.pick(MODELS);
  const failing = IMAGES.filter((image) => fateOf(image, model, fleet) !== 'works');
  const working = IMAGES.filter((image) => fateOf(image, model, fleet) === 'works');
  const rejected = prng.sample(failing, prng.int(1, 4));
  const winner: ImageSpec = working.length > 0 ? prng.pick(working) : prng.pick(IMAGES);
  return { model, candidates: [...rejected, winner] };
}

/**
 * An endless, seeded session: deployment after deployment, each followed by a stretch of
 * operations. Writers stop reading it when they have the messages (or bytes) they want.
 */
export function plannedSession(prng: Prng, index: number): SessionPlan {
  const fleetIndex = prng.int(0, FLEETS.length - 1);
  const fleet = fleetAt(fleetIndex);
  const startMs = EPOCH_MS + index * 3 * 86_400_000 + prng.int(0, 86_400_000);
  const first = planDeployment(prng, fleetIndex);
  const name = first.model.repo.split('/')[1] ?? first.model.repo;
  const info: SessionInfo = {
    title: `Deploy ${name} on ${fleet.hosts.length} × ${fleet.gpu.name.replace('NVIDIA ', '')}`,
    cwd: fleet.cwd,
    model: '',
    startMs,
    fleetUser: fleet.user,
  };
  function* turns(): TurnSource {
    const builder = new StepBuilder(prng, fleet, startMs);
    let plan = first;
    for (let episode = 0; ; episode += 1) {
      yield* deploymentTurns(builder, plan, episode === 0);
      yield* operationTurns(builder, plan.model, prng.int(15, 60));
      builder.now += prng.int(3_600_000, 86_400_000);
      plan = planDeployment(prng, fleetIndex);
    }
  }
  return { info, turns: turns() };
}
