/**
 * What a reflector has learnt of the server's bookmarks for its kind: `unknown` at first, `seen`
 * once a watch had one, `probing` after a silent watch was restarted without one since, `absent`
 * once the watch after that restart went silent too.
 */
type Bookmarks = 'unknown' | 'seen' | 'probing' | 'absent';

/**
 * Whether a watch that delivered nothing for the idle timeout is to be restarted: on a connection
 * nothing health-checks (HTTP/1.1), silence is the only sign of a path that died without a reset,
 * and it means one only where the server sends bookmarks.
 *
 * The API server's watch cache sends a watch that asks for bookmarks one about a minute after it
 * starts and each minute after, and one 2 s before its timeoutSeconds (k8s.io/apiserver
 * storage/cacher: defaultBookmarkFrequency, nextBookmarkTime). A bookmark carries the newest
 * resourceVersion the cache has heard of and is sent only when that is newer than the watch's own;
 * the cache hears of what is written anywhere in etcd through etcd's progress notifications (every
 * 5 s as kubeadm sets etcd up) and any consistent read, so on a live cluster it is. A server
 * without a watch cache for the kind (--watch-cache=false, some aggregated APIs) sends none, and
 * its quiet watches are silent for minutes while healthy.
 *
 * Which server this is is unknown at first, so a watch is guarded from its start: a path that dies
 * in the first minute is noticed too. Each restart for silence is a probe: if the watch after it
 * goes silent as long without a bookmark, the server sends none for the kind, and watches are
 * left to their timeoutSeconds until a bookmark comes. A watch cache on a live cluster costs
 * nothing (its first bookmark comes within the default 75 s); a server without one costs one watch
 * request more per kind, once; one that stops sending them (a watch cache re-initialising) costs
 * one restart. Where nothing at all is written, a watch cache has nothing newer to send either,
 * and a watch may cost a restart now and then (measured on an idle envtest: 3 kinds, 9 watch
 * requests in 10 minutes where the timeouts make 6).
 */
export class WatchSilence {
  #bookmarks: Bookmarks = 'unknown';

  /** Whether a watch starting now is restarted when silent. */
  get guards(): boolean {
    return this.#bookmarks !== 'absent';
  }

  /** A watch had a bookmark: silence means a dead path again. */
  bookmark(): void {
    this.#bookmarks = 'seen';
  }

  /**
   * A guarded watch went silent: whether to restart it (true), or to leave it, the probe having
   * shown that the server sends no bookmarks (false).
   */
  restarts(): boolean {
    if (this.#bookmarks === 'probing') {
      this.#bookmarks = 'absent';
      return false;
    }
    this.#bookmarks = 'probing';
    return true;
  }
}
