/**
 * A list's reload that never drops a change: a call that comes while one is in flight is run once
 * more after it, so the list ends showing the state after the last change (a punch going from
 * sending back to pending with its error), not the one the first answer caught.
 */
export function coalescedLoad(run: () => Promise<void>): () => Promise<void> {
  let loading = false;
  let again = false;
  const load = async (): Promise<void> => {
    if (loading) {
      again = true;
      return;
    }
    loading = true;
    try {
      await run();
    } finally {
      loading = false;
    }
    if (again) {
      again = false;
      await load();
    }
  };
  return load;
}
