// jemalloc's settings for the `parley` executable, linked only when it is
// the allocator (PARLEY_ALLOCATOR, runtime/CMakeLists.txt). jemalloc reads
// `malloc_conf` when it starts; MALLOC_CONF in the environment still
// overrides it.

#include <jemalloc/jemalloc.h>

/// A thread of jemalloc's own returns freed pages to the system as they age,
/// whether or not anything allocates meanwhile; without it the purge only
/// happens inside later allocations, so after a load a quiet server kept
/// every page the load had touched (issue 35: serve 24 MB before a move load,
/// 262 MB after it). Pages unused for 5 s are given back at once
/// (`muzzy_decay_ms:0`: MADV_DONTNEED, not the lazy MADV_FREE, which leaves
/// them in the resident set until the kernel needs them). With jemalloc's
/// defaults (10 s, then 10 s more of MADV_FREE) serve's RSS 10 s after a
/// 60 s load was 2.0x its RSS before in one run of two; with these, 1.39x and
/// 1.40x at the same throughput (docs/benchmarks/memory.md, "Memory after a load").
const char* malloc_conf = "background_thread:true,dirty_decay_ms:5000,muzzy_decay_ms:0";
