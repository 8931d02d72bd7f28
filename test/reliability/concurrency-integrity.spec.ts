import { resource, seedInventory, service } from '../factories/inventory.factory';
import { createTestApp, type TestApp, type TestTenant } from '../support/create-test-app';
import { usingPostgres } from '../support/test-config';

/**
 * Data integrity under concurrency (docs/security.md): parallel imports, membership changes
 * (assign, remove, replace), graph replaces and deletes on the same applications, all in flight
 * at once (on PostgreSQL: many pooled connections). The end state must be one that SOME serial
 * order of the successful requests produces, each request answering as it would in that order:
 * checked exhaustively against a model over every permutation of each application's operations.
 * Imports (one transaction each, tenant-locked) must each apply whole: never a mix of two.
 */
type Op =
  | { kind: 'assign'; ids: number[] }
  | { kind: 'remove'; id: number }
  | { kind: 'replace'; ids: number[] }
  | { kind: 'graph'; ids: string[] }
  | { kind: 'delete' };
interface Observed {
  op: Op;
  status: number;
}
interface ModelState {
  exists: boolean;
  members: Set<number>;
  selection: string[] | null;
}

const SERVICES = [1, 2, 3, 4, 5, 6];
const OPS_PER_APP = 7;

/** Deterministic PRNG (mulberry32), so a failure replays. */
function prng(seed: number): () => number {
  let a = seed;
  return () => {
    a |= 0;
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** What one operation answers and does, serially (the semantics of docs/inventory.md). */
function apply(state: ModelState, op: Op): { status: number; next: ModelState } {
  if (!state.exists) return { status: 404, next: state };
  switch (op.kind) {
    case 'assign':
      return { status: 200, next: { ...state, members: new Set([...state.members, ...op.ids]) } };
    case 'remove': {
      if (!state.members.has(op.id)) return { status: 404, next: state };
      const members = new Set(state.members);
      members.delete(op.id);
      return { status: 200, next: { ...state, members } };
    }
    case 'replace':
      return { status: 200, next: { ...state, members: new Set(op.ids) } };
    case 'graph': {
      // Resource r-k belongs to service k: every id must belong to a current member.
      if (op.ids.some((id) => !state.members.has(Number(id.slice(2))))) return { status: 422, next: state };
      return { status: 200, next: { ...state, selection: [...new Set(op.ids)].sort() } };
    }
    case 'delete':
      return { status: 200, next: { exists: false, members: new Set(), selection: null } };
  }
}

function* permutations<T>(items: T[]): Generator<T[]> {
  if (items.length <= 1) {
    yield items;
    return;
  }
  for (let i = 0; i < items.length; i++) {
    const rest = [...items.slice(0, i), ...items.slice(i + 1)];
    for (const p of permutations(rest)) yield [items[i]!, ...p];
  }
}

/** True when some serial order of `observed` reproduces every answer and the final state. */
function serializable(initial: ModelState, observed: Observed[], final: ModelState): boolean {
  const key = (s: ModelState) => JSON.stringify({ e: s.exists, m: [...s.members].sort(), s: s.exists ? s.selection : null });
  for (const order of permutations(observed)) {
    let state = initial;
    let ok = true;
    for (const o of order) {
      const r = apply(state, o.op);
      if (r.status !== o.status) {
        ok = false;
        break;
      }
      state = r.next;
    }
    if (ok && key(state) === key(final)) return true;
  }
  return false;
}

describe(`data integrity under concurrency (${usingPostgres() ? 'PostgreSQL, pooled connections' : 'PGlite, one connection'})`, () => {
  let t: TestApp;
  let tenant: TestTenant;
  let auth: { Authorization: string };

  beforeAll(async () => {
    t = await createTestApp();
    tenant = await t.tenant();
    auth = { Authorization: `Bearer ${await tenant.key(['admin'], { rateLimitPerMinute: 1_000_000 })}` };
    await seedInventory(t, tenant, { services: SERVICES.map((id) => service(id)), resources: SERVICES.map((id) => resource(`r-${id}`, [id])) });
  });
  afterAll(() => t.close());

  it('the serializability checker rejects what no serial order produces (lost update, impossible answers)', () => {
    const empty: ModelState = { exists: true, members: new Set(), selection: null };
    const assign1: Observed = { op: { kind: 'assign', ids: [1] }, status: 200 };
    expect(serializable(empty, [assign1, { op: { kind: 'remove', id: 1 }, status: 404 }], { exists: true, members: new Set([1]), selection: null })).toBe(true);
    // The assignment answered 200 but is not in the final state: a lost update.
    expect(serializable(empty, [assign1], { exists: true, members: new Set(), selection: null })).toBe(false);
    // A graph replace accepted for a resource whose service was never a member.
    expect(serializable(empty, [{ op: { kind: 'graph', ids: ['r-2'] }, status: 200 }], { exists: true, members: new Set(), selection: ['r-2'] })).toBe(false);
  });

  it('parallel imports, membership changes, graph replaces and deletes end in a serializable state with consistent counts', async () => {
    const rand = prng(Number(process.env.FUZZ_SEED ?? 12));
    const pick = (n: number) => SERVICES.filter(() => rand() < n / SERVICES.length);
    const apps: { id: number; name: string; initial: ModelState; ops: Op[] }[] = [];
    for (let i = 0; i < 4; i++) {
      const initialMembers = pick(3);
      const name = `conc-${i}`;
      const res = await t.http().post('/api/applications/').set(auth).send({ name, service_ids: initialMembers }).expect(200);
      const ops: Op[] = [];
      for (let k = 0; k < OPS_PER_APP; k++) {
        const r = rand();
        if (r < 0.25) ops.push({ kind: 'assign', ids: pick(2) });
        else if (r < 0.45) ops.push({ kind: 'remove', id: SERVICES[Math.floor(rand() * SERVICES.length)]! });
        else if (r < 0.65) ops.push({ kind: 'replace', ids: pick(3) });
        else if (r < 0.92 || ops.some((o) => o.kind === 'delete')) ops.push({ kind: 'graph', ids: pick(1.5).map((s) => `r-${s}`) });
        else ops.push({ kind: 'delete' });
      }
      apps.push({ id: res.body.id as number, name, initial: { exists: true, members: new Set(initialMembers), selection: null }, ops });
    }

    const send = async (app: (typeof apps)[number], op: Op): Promise<Observed> => {
      const base = `/api/applications/${app.id}`;
      const http = t.http();
      const res =
        op.kind === 'assign'
          ? await http.post(`${base}/service`).set(auth).send(op.ids)
          : op.kind === 'remove'
            ? await http.delete(`${base}/service/${op.id}`).set(auth)
            : op.kind === 'replace'
              ? await http.put('/api/applications/').set(auth).send({ id: app.id, name: app.name, description: null, tier: null, service_ids: op.ids })
              : op.kind === 'graph'
                ? await http.put(`${base}/graph`).set(auth).send(op.ids)
                : await http.delete(base).set(auth);
      return { op, status: res.status };
    };
    // Imports of the same documents' natural keys, each a different variant.
    const importDoc = (v: number) => ({
      services: SERVICES.map((id) => ({ id, name: `svc-${id}-v${v}` })),
      applications: [{ name: 'imported', service_ids: SERVICES.filter((s) => (s + v) % 2 === 0) }],
    });
    const imports = Array.from({ length: 6 }, (_, v) =>
      t
        .http()
        .post('/api/internal/inventory/import')
        .set(auth)
        .send(importDoc(v))
        .then((r) => r.status),
    );
    const observedPerApp = await Promise.all(apps.map((app) => Promise.all(app.ops.map((op) => send(app, op)))));
    expect(await Promise.all(imports)).toEqual([200, 200, 200, 200, 200, 200]);

    for (const [i, app] of apps.entries()) {
      const observed = observedPerApp[i]!;
      expect(observed.map((o) => o.status).filter((s) => ![200, 404, 422].includes(s))).toEqual([]);
      const got = await t.http().get(`/api/applications/${app.id}`).set(auth);
      const final: ModelState = {
        exists: got.status === 200,
        members: new Set<number>(got.status === 200 ? (got.body.services as number[]) : []),
        selection: null,
      };
      if (final.exists) {
        const graph = await t
          .http()
          .get(`${`/api/applications/${app.id}`}/graph`)
          .set(auth)
          .expect(200);
        final.selection = graph.body.selection === null ? null : [...(graph.body.selection as string[])].sort();
        // Derived counts agree with the membership actually stored.
        expect(got.body.service_count).toBe(final.members.size);
        expect(got.body.resource_count).toBe(final.members.size);
        const rows = (await t.dataSource.query('SELECT count(*)::int AS c FROM application_services WHERE tenant_id = $1 AND application_id = $2', [
          tenant.id,
          app.id,
        ])) as { c: number }[];
        expect(rows[0]!.c).toBe(final.members.size);
      } else {
        expect(got.status).toBe(404);
      }
      const ok = serializable(app.initial, observed, final);
      if (!ok)
        throw new Error(
          `application ${app.name}: no serial order explains ${JSON.stringify({ observed: observed.map((o) => [o.op, o.status]), final: { ...final, members: [...final.members] } })}`,
        );
    }

    // Each import applied whole: every service name and the imported membership come from ONE variant.
    const names = ((await t.dataSource.query('SELECT name FROM inventory_services WHERE tenant_id = $1 ORDER BY id', [tenant.id])) as { name: string }[]).map(
      (r) => r.name,
    );
    const variants = new Set(names.map((n) => n.split('-v')[1]));
    expect(variants.size).toBe(1);
    const v = Number([...variants][0]);
    const list = await t.http().get('/api/applications?limit=100').set(auth).expect(200);
    const imported = (list.body.items as { name: string; services: number[]; service_count: number }[]).find((a) => a.name === 'imported')!;
    expect([...imported.services].sort()).toEqual(importDoc(v).applications[0]!.service_ids);
    // The list's derived counts agree with each application's own view.
    for (const item of list.body.items as { id: number; service_count: number; services: number[] }[]) expect(item.service_count).toBe(item.services.length);
    expect(list.body.total).toBe((list.body.items as unknown[]).length);
  });
});
