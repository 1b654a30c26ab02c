// jemalloc's settings for the `parley` executable, linked only when it is
// the allocator (PARLEY_ALLOCATOR, runtime/CMakeLists.txt). jemalloc reads
// `malloc_conf` when it starts; MALLOC_CONF in the environment still
// overrides it.

#include <jemalloc/jemalloc.h>

/// A thread of jemalloc's own returns freed pages to the system as they age
/// (`dirty_decay_ms`, jemalloc's default of 10 s), whether or not anything
/// allocates meanwhile. Without it the purge only happens inside later
/// allocations, so after a load a quiet server kept every page the load had
/// touched (issue 35: serve 24 MB before a move load, 262 MB after it).
const char* malloc_conf = "background_thread:true";
