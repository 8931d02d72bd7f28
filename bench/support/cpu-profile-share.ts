/**
 * Share of a process's busy CPU spent in some code, from a V8 CPU profile taken with the inspector
 * (bench-server.ts `profile-start` / `profile-stop`). A ratio inside one process and one run, so it
 * holds up on a machine shared with other work far better than requests/s.
 */
import inspector from 'node:inspector';

interface CpuProfileNode {
  id: number;
  callFrame: { functionName: string; url: string };
  children?: number[];
}

export interface CpuProfile {
  nodes: CpuProfileNode[];
  samples: number[];
  timeDeltas: number[];
}

export interface CpuShare {
  share_pct: number;
  busy_ms: number;
}

/**
 * Each sample is walked from the leaf up: the first frame whose script matches `own` claims it, the
 * first frame matching `other` (callers' code: frameworks, the handler) does not. Runtime frames in
 * between (Map, Promise, Date) go to whoever called them.
 */
export function cpuShareOf(profile: CpuProfile, own: RegExp, other: RegExp): CpuShare {
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const parent = new Map<number, number>();
  for (const n of profile.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
  let busy = 0;
  let claimed = 0;
  profile.samples.forEach((id, i) => {
    const dt = profile.timeDeltas[i] ?? 0;
    if (byId.get(id)!.callFrame.functionName === '(idle)') return;
    busy += dt;
    for (let x: number | undefined = id; x !== undefined; x = parent.get(x)) {
      const url = byId.get(x)!.callFrame.url;
      if (own.test(url)) {
        claimed += dt;
        break;
      }
      if (other.test(url)) break;
    }
  });
  return { share_pct: Math.round((claimed / Math.max(1, busy)) * 10_000) / 100, busy_ms: Math.round(busy / 1000) };
}

/** Profiles this process between start() and stop() (sampling every 200 µs). */
export class CpuProfiler {
  private readonly session = new inspector.Session();

  async start(): Promise<void> {
    this.session.connect();
    await this.post('Profiler.enable');
    await this.post('Profiler.setSamplingInterval', { interval: 200 });
    await this.post('Profiler.start');
  }

  async stop(): Promise<CpuProfile> {
    const { profile } = await this.post<{ profile: CpuProfile }>('Profiler.stop');
    this.session.disconnect();
    return profile;
  }

  private post<T>(method: string, params?: object): Promise<T> {
    return new Promise<T>((resolve, reject) => this.session.post(method, params ?? {}, (err, res) => (err ? reject(err) : resolve(res as T))));
  }
}
