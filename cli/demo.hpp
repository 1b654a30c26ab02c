#pragma once

#include <cstdint>
#include <iosfwd>

#include "cli/scenario_runner.hpp"
#include "config/settings.hpp"

namespace parley::cli {

/// The embedded demo: a client's rule agent and a freelancer's rule agent
/// negotiate a website redesign in one room, in real time.
scenario demo_scenario();

/// Plays the demo and prints it (a timeline, or JSON lines); returns what it
/// counted.
messages::run_summary run_demo(const config::settings& settings, output_format format,
                               std::uint64_t seed, std::ostream& out);

} // namespace parley::cli
