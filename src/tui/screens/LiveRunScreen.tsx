import { Box } from 'ink';
import { useReducer } from 'react';
import { ChoiceDialog } from '../components/ChoiceDialog.js';
import { ConfirmDialog } from '../components/ConfirmDialog.js';
import { Line } from '../components/Line.js';
import { ScreenFrame, FRAME_LINES } from '../components/ScreenFrame.js';
import { VirtualList } from '../components/VirtualList.js';
import { useListKeys } from '../hooks/use-list-keys.js';
import { useNow, useRunEvents } from '../hooks/use-run-events.js';
import { wrap } from '../format.js';
import { seg } from '../segments.js';
import { useNavigator, useServices } from '../state/contexts.js';
import type { HostOfStep } from '../../core/run/events.js';
import { canRetry, heldStep, initialLiveRun, liveRunReducer, selectedLiveStep, skipRequest } from '../state/live-run-reducer.js';
import { failurePanel, liveHeadline, liveStepSegments, outputTail } from './live-run-rows.js';
import type { ScreenProps } from './screen-props.js';

/** A replay as it happens: steps with status, the selected step's output streaming, and the controls. */
export function LiveRunScreen({ width, height, visible }: ScreenProps) {
  const { liveRun: controller, liveRunWatch: watch } = useServices();
  const navigator = useNavigator();
  const bodyHeight = Math.max(4, height - FRAME_LINES - 2);
  const listHeight = Math.max(3, Math.floor(bodyHeight * 0.4));
  const paneHeight = bodyHeight - listHeight;
  const [state, dispatch] = useReducer(liveRunReducer, listHeight, initialLiveRun);
  useRunEvents(controller, (events, now) => dispatch({ type: 'events', events, now }));
  const now = useNow(visible && !state.finished && state.steps.some((step) => step.status === 'running'));
  const selected = selectedLiveStep(state);
  // While the run holds on a failure, r and s act on it (the selected failed host, else the first).
  const target = heldStep(state) ?? selected;
  const note = (text: string) => dispatch({ type: 'note', text });
  const skip = (stepId: string, on?: HostOfStep) => {
    controller?.skip(stepId, on);
    note(on ? `skip asked for ${stepId} on ${on.role} ${on.host}` : `skip asked for ${stepId} on every host`);
  };
  // Followed from another terminal: the keys that steer say where the run is steered from.
  const steered = watch ? steeredElsewhere(watch.pid) : null;
  const watching = (input: string): boolean => {
    if (!steered || !['q', 'p', 's', 'r', 'y', 'n'].includes(input)) return false;
    if (input === 'q' && (state.finished || state.note === leaveNote(steered))) navigator.quit();
    else note(input === 'q' ? leaveNote(steered) : steered);
    return true;
  };
  useListKeys({
    editing: false,
    active: visible && (Boolean(steered) || (!state.confirm && !state.askingAbort && !state.choosingSkip)),
    height: listHeight,
    dispatch,
    own: (input) => {
      if (!controller) return false;
      if (watching(input)) return true;
      switch (input) {
        case 'q':
          if (state.finished) navigator.quit();
          else dispatch({ type: 'ask-abort' });
          return true;
        case 'f':
          dispatch({ type: 'follow' });
          return true;
        case 'c':
          if (state.finished && state.runId) navigator.open({ screen: 'compare', runId: state.runId });
          return true;
        case 'p':
          if (state.finished) return true;
          if (state.held.length > 0) note('p does not go past a failure: r, s or q');
          else if (state.paused) controller.resume();
          else {
            controller.pause();
            dispatch({ type: 'pause-requested' });
          }
          return true;
        case 's': {
          if (!target) return true;
          const request = skipRequest(state, target);
          if (request.kind === 'refuse') note(request.note);
          else if (request.kind === 'ask') dispatch({ type: 'ask-skip', stepId: request.stepId, on: request.on, hosts: request.hosts });
          else skip(request.stepId, request.on);
          return true;
        }
        case 'r':
          if (!target) return true;
          if (!canRetry(state, target)) note(`${target.stepId} is ${target.status}: retry is for failed steps`);
          else {
            controller.retry(target.stepId, { role: target.role, host: target.host });
            note(`retry asked for ${target.stepId} on ${target.role} ${target.host}`);
          }
          return true;
        default:
          return false;
      }
    },
  });
  if (!visible) return null;
  if (!controller) {
    return (
      <ScreenFrame width={width} height={height} title="Live run" status="no live run">
        <Line segments={[seg('  No live run is attached: start one with `retrace replay … --live --tui`.', 'dim')]} width={width} />
      </ScreenFrame>
    );
  }
  const confirm = state.confirm;
  const choosing = state.choosingSkip;
  const answerSkip = (all: boolean) => {
    if (!choosing) return;
    dispatch({ type: 'skip-answered' });
    skip(choosing.stepId, all ? undefined : choosing.on);
  };
  const answerConfirm = (answer: 'yes' | 'no' | 'skip') => {
    if (!confirm) return;
    if (answer === 'skip') controller.skip(confirm.stepId);
    else controller.confirm(confirm.stepId, answer === 'yes');
    dispatch({ type: 'confirm-answered' });
    note(`${confirm.stepId}: ${answer === 'yes' ? 'confirmed' : answer === 'no' ? 'declined' : 'skipped'}`);
  };
  const answerAbort = (yes: boolean) => {
    if (yes) controller.abort();
    dispatch({ type: 'cancel-abort' });
    if (yes) note('abort asked: the running step is being interrupted');
  };
  return (
    <ScreenFrame width={width} height={height} title={`Live run · ${state.runId ?? controller.runId}${steered ? ` · watching (steered by PID ${watch?.pid ?? '?'})` : ''}`} status={state.note ?? (state.follow ? 'following the running step' : 'f: follow the running step')} hint={state.finished ? ' ? keys · c vs record · q quit' : steered ? ' ? keys · f follow · q leave (the run goes on)' : state.held.length > 0 ? ' ? keys · r retry · s skip · q abort' : ' ? keys · p pause · q abort'}>
      <Line segments={liveHeadline(state, steered)} width={width} />
      <VirtualList list={state.list} width={width} rowAt={(index) => state.steps[index]} renderRow={(step) => liveStepSegments(step, now)} empty="waiting for the run to start…" />
      <Line segments={[seg('─'.repeat(width), 'dim')]} width={width} />
      <Box flexDirection="column" height={paneHeight}>
        {confirm && steered ? (
          [...wrap(`Waiting for confirmation of ${confirm.stepId} on ${confirm.host}: ${steered}`, width - 1).map((line) => [seg(` ${line}`, 'warn')]), [seg(` $ ${confirm.command}`, 'accent')]].map((segments, index) => <Line key={index} segments={segments} width={width} />)
        ) : confirm ? (
          <ConfirmDialog
            title={`Run destructive step ${confirm.stepId} on ${confirm.host}?`}
            detail={`$ ${confirm.command}`}
            width={width}
            maxLines={Math.max(1, paneHeight - 4)}
            extra={[{ key: 's', label: 'skip it', run: () => answerConfirm('skip') }]}
            onAnswer={(yes) => answerConfirm(yes ? 'yes' : 'no')}
          />
        ) : choosing ? (
          <ChoiceDialog
            title={`Skip ${choosing.stepId} on ${choosing.on.role} ${choosing.on.host} only, or on all ${choosing.hosts} hosts it is still to run or failed on?`}
            width={width}
            choices={[
              { key: 'h', label: 'this host', run: () => answerSkip(false) },
              { key: 'a', label: 'all hosts', run: () => answerSkip(true) },
            ]}
            onCancel={() => dispatch({ type: 'skip-answered' })}
          />
        ) : state.askingAbort ? (
          <ConfirmDialog title="Abort the run?" detail="The running step is interrupted and the run is recorded as aborted." width={width} onAnswer={answerAbort} />
        ) : (
          (state.held.length > 0 ? failurePanel(state, width, paneHeight, steered) : outputTail(selected, paneHeight)).map((segments, index) => <Line key={index} segments={segments} width={width} />)
        )}
      </Box>
    </ScreenFrame>
  );
}

/** What a watcher's steering keys say (issue 17.7): the run answers only the terminal that started it. */
export function steeredElsewhere(pid: number | null): string {
  return `this run is steered from the terminal that started it${pid === null ? '' : ` (PID ${pid})`}`;
}

function leaveNote(steered: string): string {
  return `q again to leave this view (the run goes on): ${steered}`;
}
