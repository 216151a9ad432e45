// A C++17 program using an installed fixsteer through CMake (find_package(fixsteer)):
// loads a replay, re-simulates it with fxs_replay_verify and prints the final state hash.
#include <cinttypes>
#include <cstdio>
#include <fstream>
#include <iterator>
#include <optional>
#include <string>
#include <vector>

#include "fixsteer/fixsteer.h"

namespace {

std::optional<std::vector<std::uint8_t>> read_file(const std::string &path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return std::nullopt;
  return std::vector<std::uint8_t>(std::istreambuf_iterator<char>(in), {});
}

}  // namespace

int main(int argc, char **argv) {
  if (argc != 2) {
    std::fprintf(stderr, "usage: %s REPLAY.fxr\n", argv[0]);
    return 2;
  }
  if (fxs_math_fingerprint() != FXS_MATH_FINGERPRINT_PINNED) {
    std::fprintf(stderr, "fixsteer was built with a different libfixmath\n");
    return 1;
  }
  auto data = read_file(argv[1]);
  if (!data || data->empty()) {
    std::fprintf(stderr, "%s: cannot read\n", argv[1]);
    return 2;
  }
  std::vector<std::uint8_t> memory(fxs_replay_verify_memory_size(data->data(), data->size(), nullptr));
  fxs_verify_report report{};
  fxs_result result = memory.empty() ? FXS_ERR_BAD_MAGIC
                                     : fxs_replay_verify(data->data(), data->size(), nullptr, memory.data(),
                                                         memory.size(), &report);
  if (result != FXS_OK) {
    std::fprintf(stderr, "%s: %s\n", argv[1], fxs_result_message(result));
    return 1;
  }
  std::printf("fixsteer %s, replay format %u: %s: %u ticks verified, final hash 0x%016" PRIx64 "\n",
              fxs_version(), static_cast<unsigned>(fxs_replay_format_version()), argv[1],
              static_cast<unsigned>(report.ticks), report.final_hash);
  return 0;
}
