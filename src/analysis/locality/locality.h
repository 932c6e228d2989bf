/*
 * locality.h - the locality kernels' contract: what the tools and the other
 * analysis folders may use of src/analysis/locality/.
 *
 *   reuse.h     exact LRU stack distance and reuse time of a stream of block
 *               accesses, in one pass (MemGaze's and Mattson's definitions)
 *   windows.h   the footprint over windows of 2^k accesses (MemGaze's
 *               execution-interval tree), exact
 */
#ifndef EDAN_ANALYSIS_LOCALITY_H
#define EDAN_ANALYSIS_LOCALITY_H

#include "analysis/locality/reuse.h"
#include "analysis/locality/windows.h"

#endif
