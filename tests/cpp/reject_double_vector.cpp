// Must NOT compile: UE5's FVector is three doubles (24 bytes); sinew.hpp's static_assert
// rejects it with a message that names FVector3f. Compiled by tests/bindings/cpp_wrapper.rs,
// which requires the compile to fail with that message.
#include <vector>

#include "sinew.hpp"

struct FVectorDouble {
    double X, Y, Z;
};

int read_into_double_vectors(sinew::World& world);
int read_into_double_vectors(sinew::World& world) {
    std::vector<FVectorDouble> out(4);
    return world.read_positions(sinew::Range{0, 4}, out).ok() ? 0 : 1;
}
