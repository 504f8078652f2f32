// Sikora et al. 2016's SMG2000 limitation: a recursive code reaches one MPI call through as many
// call paths as it has recursion levels, and each would be a node of its own. A function that
// occurs more than `depth` times on a call path is folded: a call below its depth-th occurrence
// counts as a call at that occurrence (`main/solve/solve/solve/solve/MPI_Send` with depth 3 is
// `main/solve/solve/solve/MPI_Send`). tag/build applies the same rule to a trace's call tree.
//
//   std::vector<std::string> p = FoldRecursion({"main", "f", "f", "f"}, 2);   // main/f/f
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace cw::tag {

// `path` outermost first; depth 0 folds nothing.
std::vector<std::string> FoldRecursion(std::vector<std::string> path, uint32_t depth);

}  // namespace cw::tag
