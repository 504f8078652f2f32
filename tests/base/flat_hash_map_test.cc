#include "base/flat_hash_map.h"

#include <gtest/gtest.h>

#include <cstdint>
#include <map>
#include <random>

namespace cw {
namespace {

// Every key hashes to the same slot: each lookup and erasure walks one probe run.
struct CollidingHash {
  size_t operator()(uint64_t) const { return 7; }
};

// Runs the same random inserts, lookups and erasures on the map and on std::map, and compares
// them after every step: what the map holds must not depend on the order of its probe runs.
template <typename Hash>
void CompareWithStdMap(uint64_t keys, uint32_t seed) {
  FlatHashMap<uint64_t, uint64_t, Hash> map;
  std::map<uint64_t, uint64_t> reference;
  std::mt19937_64 rng(seed);
  for (int step = 0; step < 20000; ++step) {
    const uint64_t key = rng() % keys;
    const auto now = static_cast<uint64_t>(step);
    switch (rng() % 4) {
      case 0:
        map.Insert(key, now);
        reference[key] = now;
        break;
      case 1:
        // FindOrInsert gives the stored value, or a new zero that the caller then sets.
        EXPECT_EQ(map.FindOrInsert(key), reference[key]);
        map.FindOrInsert(key) += 1;
        reference[key] += 1;
        break;
      case 2:
        EXPECT_EQ(map.Erase(key), reference.erase(key) == 1);
        break;
      default: {
        const uint64_t* found = map.Find(key);
        auto it = reference.find(key);
        ASSERT_EQ(found != nullptr, it != reference.end());
        if (found != nullptr) {
          EXPECT_EQ(*found, it->second);
        }
      }
    }
    ASSERT_EQ(map.size(), reference.size());
  }
  std::map<uint64_t, uint64_t> all;
  map.ForEach([&all](uint64_t k, uint64_t v) { all[k] = v; });
  EXPECT_EQ(all, reference);
}

TEST(FlatHashMapTest, BehavesAsAnOrderedMapUnderRandomOperations) {
  CompareWithStdMap<IntegerHash>(300, 1);
  CompareWithStdMap<IntegerHash>(5000, 2);  // grows through several capacities
}

TEST(FlatHashMapTest, OneLongProbeRunStaysConsistent) { CompareWithStdMap<CollidingHash>(60, 3); }

TEST(FlatHashMapTest, FindOrInsertValueInitialisesANewEntry) {
  FlatHashMap<uint64_t, uint64_t> map;
  EXPECT_EQ(map.FindOrInsert(42), 0u);
  EXPECT_EQ(map.size(), 1u);
  map.FindOrInsert(42) = 5;
  EXPECT_EQ(map.FindOrInsert(42), 5u);
  EXPECT_EQ(map.size(), 1u);
  ASSERT_NE(map.Find(42), nullptr);
  EXPECT_EQ(*map.Find(42), 5u);
}

}  // namespace
}  // namespace cw
