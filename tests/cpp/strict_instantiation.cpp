// Instantiates every template of bindings/cpp so that tests/bindings/cpp_wrapper.rs can compile
// them (syntax only) under the warnings Unreal's compilers are strict about: shadowing,
// implicit conversions, old-style casts; without exceptions and RTTI; C++17 and C++20.
#include <vector>

#include "sinew.hpp"
#include "sinew_cloth.hpp"
#include "sinew_colliders.hpp"
#include "sinew_fluid.hpp"
#include "sinew_rope.hpp"
#include "sinew_render.hpp"
#include "sinew_scene.hpp"
#include "sinew_soft.hpp"
#include "sinew_tube.hpp"
#include "sinew_units.hpp"

template class sinew::Result<int>;
template class sinew::Result<sinew::World>;
template class sinew::Span<const sinew::Vec3>;

struct FVector3fLike {
    float X, Y, Z;
};

void instantiate(sinew::Scene& scene, std::vector<FVector3fLike>& v, std::vector<float>& f, float (*arr)[3]);
void instantiate(sinew::Scene& scene, std::vector<FVector3fLike>& v, std::vector<float>& f, float (*arr)[3]) {
    (void)scene.read_positions(1, v);
    (void)scene.read_velocities(1, v);
    (void)scene.read_interpolated_positions(1, 0.5f, v);
    (void)scene.read_forces(1, sinew::BodyConstraints::Stretch, f);
    (void)scene.add_rope(sinew::RopeDesc());
    {
        std::vector<sinew::Vec3> pts;
        std::vector<uint32_t> idx;
        auto w = sinew::soft::weld(pts, idx);
        auto m = sinew::soft::tetrahedralize(pts, idx, 4);
        auto e = sinew::soft::embed(pts, idx, pts);
        if (e) (void)e->apply(pts, pts);
        (void)sinew::soft::lumped_inverse_masses(pts, idx, 4, 1.0f);
        (void)scene.add_tet_body(sinew::TetBodyDesc(), pts, idx, 0.0f);
        (void)scene.add_pressure_body(sinew::PressureBodyDesc(), pts, idx, 0.0f);
        (void)scene.set_pressure(1, 1.0f);
        (void)scene.set_mass(1, 1.0f);
        (void)scene.volume(1);
        (void)w;
        (void)m;
    }
    (void)scene.set_compliance(1, sinew::BodyConstraints::Bend, 0.0f);
    auto w = sinew::World::create();
    const sinew::Range r{0, 1};
    (void)w->read_positions(r, v);
    (void)w->read_velocities(r, v);
    (void)w->read_constraint_forces(r, f);
    (void)w->write_positions(0, v);
    (void)w->write_velocities(0, v);
    (void)w->read_positions(0, sinew::Span<float[3]>(arr, 1));
    (void)w->add_particles(sinew::Span<const FVector3fLike>(v), sinew::Span<const float>(f));
    sinew::tube::Mesh m;
    (void)sinew::tube::build(std::vector<sinew::Vec3>{}, sinew::tube::Params{}, m);
    (void)sinew::cloth::weld(std::vector<sinew::Vec3>{}, std::vector<uint32_t>{}, 0.0f);
    (void)sinew::rope::polyline(sinew::rope::Params{});
    const sinew::Span<const FVector3fLike> cv(v);
    const std::vector<uint32_t> idx{0, 1, 2, 3};
    (void)w->add_rope_polyline(sinew::RopeDesc(), v);
    (void)w->add_cloth_mesh(sinew::ClothDesc(), v, idx, f);
    (void)w->add_tet_body(sinew::TetBodyDesc(), v, idx, f);
    (void)w->add_pressure_body(sinew::PressureBodyDesc(), cv, idx);
    (void)w->add_attachments(0, idx, cv, 0.0f);
    (void)w->read_attachment_forces(r, v);
    (void)w->read_attachment_forces(0, sinew::Span<FVector3fLike>(v));
    (void)w->read_family_forces(sinew::Family::Tether, r, f);
    std::vector<SinewContact> contacts;
    (void)w->read_contacts(contacts);
    sinew::Body body = std::move(w->add_rope()).value();
    (void)body.read_positions(v);
    (void)body.read_forces(sinew::BodyConstraints::Stretch, sinew::Span<float>(f));
    (void)body.kind();
    (void)body.read_forces(sinew::BodyConstraints::Tether, f);
    (void)w->advance(0.02f, 0.01f, 4);
    (void)w->read_interpolated_positions(r, 0.5f, v);
    (void)w->read_interpolated_positions(0, 0.5f, sinew::Span<float[3]>(arr, 1));
    (void)body.read_interpolated_positions(0.5f, v);
    (void)body.read_interpolated_positions(0.5f, sinew::Span<FVector3fLike>(v));
    sinew::Fluid fluid = std::move(w->add_fluid(sinew::FluidDesc().with_capacity(4))).value();
    (void)fluid.emit(v);
    (void)fluid.emit(cv, cv);
    (void)fluid.read_particles(0.5f, v);
    (void)fluid.read_particles(1.0f, sinew::Span<FVector3fLike>(v), sinew::Span<FVector3fLike>(v),
                               sinew::Span<float>(f));
    std::vector<SinewDiffuseParticle> diffuse;
    (void)fluid.read_diffuse(diffuse);
    std::vector<SinewFluidEllipsoid> ellipsoids;
    (void)fluid.read_anisotropy(sinew::AnisotropyDesc(), 1.0f, ellipsoids);
    std::vector<sinew::Vec3> sv;
    sinew::Scene scene2 = std::move(sinew::Scene::create()).value();
    (void)scene2.read_velocities(1, sv);
    (void)scene2.read_velocities(1, sinew::Span<sinew::Vec3>(sv));
    (void)body.fluid_force();
}
