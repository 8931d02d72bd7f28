/** Most resources one PUT graph may select. */
export const MAX_GRAPH_SELECTION = 10_000;
