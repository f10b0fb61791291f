import type { Route } from '../routes.js';
import { CompareScreen } from './CompareScreen.js';
import { LiveRunScreen } from './LiveRunScreen.js';
import { OutputScreen } from './OutputScreen.js';
import { RunsScreen } from './RunsScreen.js';
import type { ScreenProps } from './screen-props.js';
import { SessionsScreen } from './SessionsScreen.js';
import { TimelineScreen } from './TimelineScreen.js';
import { TimingsScreen } from './TimingsScreen.js';
import { TreeScreen } from './TreeScreen.js';
import { WhyScreen } from './WhyScreen.js';

/** The screen component of a route. */
export function RouteScreen({ route, ...props }: ScreenProps & { route: Route }) {
  switch (route.screen) {
    case 'sessions':
      return <SessionsScreen {...props} />;
    case 'timeline':
      return <TimelineScreen {...props} route={route} />;
    case 'output':
      return <OutputScreen {...props} route={route} />;
    case 'tree':
      return <TreeScreen {...props} route={route} />;
    case 'why':
      return <WhyScreen {...props} route={route} />;
    case 'timings':
      return <TimingsScreen {...props} route={route} />;
    case 'runs':
      return <RunsScreen {...props} />;
    case 'live-run':
      return <LiveRunScreen {...props} />;
    case 'compare':
      return <CompareScreen {...props} route={route} />;
  }
}
