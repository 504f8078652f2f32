// causeway-gen: writes a synthetic MPI trace (see synthetic_trace.h) for demos and benchmarks.
//
//   causeway-gen --ranks 64 --events 20000000 -o /tmp/big        # the benchmark trace
//   causeway-gen --ranks 8 --iterations 40 -o demo --facts demo/facts.json
#include <cstdio>
#include <fstream>

#include <CLI/CLI.hpp>
#include <nlohmann/json.hpp>

#include "bench/synthetic_trace.h"

int main(int argc, char** argv) {
  cw::bench::SyntheticTraceOptions options;
  std::string output;
  std::string facts_file;
  CLI::App app{"Write a synthetic MPI stencil trace (OTF2) with known wait states"};
  app.add_option("-o,--output", output, "archive directory")->required();
  app.add_option("--ranks", options.ranks, "MPI ranks")->check(CLI::Range(1u, 1u << 20));
  app.add_option("--iterations", options.iterations, "iterations of the stencil loop");
  app.add_option("--events", options.target_events,
                 "choose the iterations to reach this many events");
  app.add_option("--imbalance", options.imbalance, "extra compute of the slowest ranks (fraction)")
      ->check(CLI::Range(0.0, 100.0));
  app.add_option("--bytes", options.message_bytes, "bytes per halo message");
  app.add_option("--seed", options.seed, "seed of the compute-time noise");
  app.add_option("--facts", facts_file, "write what the generator knows (JSON) to this file");
  CLI11_PARSE(app, argc, argv);

  cw::Result<cw::bench::SyntheticTraceFacts> facts =
      cw::bench::WriteSyntheticTrace(output, options);
  if (!facts) {
    std::fprintf(stderr, "causeway-gen: %s\n", facts.error().message().c_str());
    return 2;
  }
  nlohmann::json j = {{"anchor", facts->anchor},
                      {"events", facts->events},
                      {"iterations", facts->iterations},
                      {"messages", facts->messages},
                      {"allreduces", facts->allreduces},
                      {"late_sender", facts->late_sender},
                      {"late_receiver", facts->late_receiver},
                      {"wait_nxn", facts->wait_nxn},
                      {"nxn_completion", facts->nxn_completion}};
  if (!facts_file.empty()) std::ofstream(facts_file) << j.dump(1) << "\n";
  std::printf("wrote %s: %u ranks, %llu events, %llu iterations\n", facts->anchor.c_str(),
              options.ranks, static_cast<unsigned long long>(facts->events),
              static_cast<unsigned long long>(facts->iterations));
  return 0;
}
