#include "cli/chosen_store.hpp"

#include <cstdlib>

namespace parley::cli {

bool chosen_store(const std::string& flag, const config::settings& settings,
                  actors::store::store_url& out, std::ostream& err) {
  auto text = actors::store::choose_store_url(flag, std::getenv("PARLEY_STORE"),
                                              settings.store.url);
  if (auto why = actors::store::parse_store_url(text, out); !why.empty()) {
    err << "parley: " << why << "\n";
    return false;
  }
  out.synchronous_full = settings.store.synchronous == "full";
  return true;
}

} // namespace parley::cli
