// A scene's parameters, each declared once: its document field, its limits, its URL form and where it lives
// in the scene's parameter struct. The state document (write_params), the link (url_params), the list of
// fields setState knows and the validated reading in prepare all come from this one table, so a field can no
// longer be added to three of those four places and silently missing from the fourth.
//
//   using P = SelfAttnParams;
//   static const FieldTable<P> kFields = {
//       {"text", at<&P::text>},                               // a string (URL: as typed)
//       {"d_k", at<&P::d_k>, 1, self_limits::kMaxDModel},      // an integer in [1, max] (URL: a number)
//       {"seed", at<&P::seed>},                               // a seed: an integer in [0, limits::kMaxSeed]
//       {"learning_rate", at<&P::lr>, 0.0, 1.0, "lr"},         // a number, under another name in links
//       mask_field<P>(),                                      // anything else: its own reader and writer
//       {"matrices", by_scene, UrlKind::Matrices, "m"},       // read and written by the scene's own code
//       Field<P>{"d_k", at<&P::d_k>, 1, 64}.by_scene(),       // its limits here, read where the scene says
//   };
//
// Fields are read, written and put in links in table order: the first invalid field in that order is the
// one a refusal names. A field that rules spanning fields decide (the SDPA scene's sentence against hand-set
// matrices) is marked by_scene: it is declared here (a known field, its link form, its limits when it has a
// member), and the scene reads and writes it itself, after or around the table's reading.
#pragma once
#include <nlohmann/json.hpp>

#include <cstdint>
#include <initializer_list>
#include <string>
#include <variant>
#include <vector>

#include "app/json_fields.h"
#include "core/attention.h"
#include "app/scene.h"
#include "app/scene_presets.h"

namespace ap {

// at<&P::member>: the member as a plain function (a field's accessor; no captures, so tables stay static).
template <class T>
struct member_pointer;
template <class C, class T>
struct member_pointer<T C::*> {
  using owner = C;
  using type = T;
};
// Q: the member's class or one derived from it (a scene's parameters that extend the core's), deduced from
// the field's accessor type.
template <auto M, class Q = typename member_pointer<decltype(M)>::owner>
typename member_pointer<decltype(M)>::type& at(Q& p) {
  return p.*M;
}

// The tag of a field that is only declared in the table (see by_scene above).
struct BySceneTag {};
inline constexpr BySceneTag by_scene{};

template <class P>
struct Field {
  template <class T>
  using Ref = T& (*)(P&);
  struct Custom {  // a field the plain readers do not cover (an enum by name, a derived default …)
    Status (*read)(const nlohmann::json& v, P* p);
    void (*write)(const P& p, nlohmann::json& doc);
  };
  using Access = std::variant<Ref<int>, Ref<uint64_t>, Ref<double>, Ref<bool>, Ref<std::string>, Ref<std::vector<std::string>>, Custom,
                              std::monostate>;  // monostate: declared only, the scene reads and writes it

  const char* name;         // the document field
  Access access;
  long long lo = 0, hi = 0; // int (uint64_t: a seed, 0 … limits::kMaxSeed unless given)
  double dlo = 0, dhi = 0;  // double
  const char* url = nullptr;  // its name in a link (nullptr: the field's own name)
  UrlKind url_kind = UrlKind::String;
  bool in_url = true;
  bool scene_reads = false;  // skipped by read_fields and write_fields: the scene's own code reads and writes it

  Field(const char* n, Ref<int> r, long long lo_, long long hi_, const char* url_name = nullptr)
      : name(n), access(r), lo(lo_), hi(hi_), url(url_name), url_kind(UrlKind::Number) {}
  Field(const char* n, Ref<uint64_t> r, long long lo_ = 0, long long hi_ = limits::kMaxSeed)
      : name(n), access(r), lo(lo_), hi(hi_), url_kind(UrlKind::Number) {}
  Field(const char* n, Ref<double> r, double lo_, double hi_, const char* url_name = nullptr)
      : name(n), access(r), dlo(lo_), dhi(hi_), url(url_name), url_kind(UrlKind::Number) {}
  Field(const char* n, Ref<bool> r) : name(n), access(r), url_kind(UrlKind::Bool) {}
  Field(const char* n, Ref<std::string> r) : name(n), access(r), url_kind(UrlKind::String) {}
  Field(const char* n, Ref<std::vector<std::string>> r) : name(n), access(r), url_kind(UrlKind::Json) {}
  Field(const char* n, Status (*read)(const nlohmann::json&, P*), void (*write)(const P&, nlohmann::json&), UrlKind kind,
        const char* url_name = nullptr, bool in_link = true)
      : name(n), access(Custom{read, write}), url(url_name), url_kind(kind), in_url(in_link) {}
  Field(const char* n, BySceneTag, UrlKind kind, const char* url_name = nullptr, bool in_link = true)
      : name(n), access(std::monostate{}), url(url_name), url_kind(kind), in_url(in_link), scene_reads(true) {}

  // This field with its reader and limits kept, read and written where the scene's own rules say.
  Field by_scene() const {
    Field f = *this;
    f.scene_reads = true;
    return f;
  }

  // Validates `v` and stores it in `p`; on an error `p` is left as it was.
  Status read(const nlohmann::json& v, P* p) const {
    long long iv = 0;
    if (const auto* r = std::get_if<Ref<int>>(&access)) {
      AP_TRY(read_int(v, name, lo, hi, &iv));
      (*r)(*p) = static_cast<int>(iv);
    } else if (const auto* r = std::get_if<Ref<uint64_t>>(&access)) {
      AP_TRY(read_int(v, name, lo, hi, &iv));
      (*r)(*p) = static_cast<uint64_t>(iv);
    } else if (const auto* r = std::get_if<Ref<double>>(&access)) {
      AP_TRY(read_number(v, name, dlo, dhi, &(*r)(*p)));
    } else if (const auto* r = std::get_if<Ref<bool>>(&access)) {
      AP_TRY(read_bool(v, name, &(*r)(*p)));
    } else if (const auto* r = std::get_if<Ref<std::string>>(&access)) {
      AP_TRY(read_string(v, name, &(*r)(*p)));
    } else if (const auto* r = std::get_if<Ref<std::vector<std::string>>>(&access)) {
      AP_TRY(read_string_list(v, name, &(*r)(*p)));
    } else if (const auto* c = std::get_if<Custom>(&access)) {
      AP_TRY(c->read(v, p));
    }
    return Status::Ok();
  }

  void write(const P& p, nlohmann::json& doc) const {
    P& q = const_cast<P&>(p);  // the accessors only read here
    std::visit(
        [&](auto r) {
          if constexpr (std::is_same_v<decltype(r), Custom>) r.write(p, doc);
          else if constexpr (!std::is_same_v<decltype(r), std::monostate>) doc[name] = r(q);
        },
        access);
  }
};

// The field "weights": "trained" or "random" (P::trained), as every scene with a trained view writes it.
template <class P>
Field<P> weights_field() {
  return {"weights",
          [](const nlohmann::json& v, P* p) {
            if (!v.is_string() || (v.get<std::string>() != "trained" && v.get<std::string>() != "random"))
              return Status::Error("weights must be \"trained\" or \"random\", got {0}", {quote_json(v)});
            p->trained = v.get<std::string>() == "trained";
            return Status::Ok();
          },
          [](const P& p, nlohmann::json& doc) { doc["weights"] = p.trained ? "trained" : "random"; }, UrlKind::String};
}

// The field "mask": "none", "padding" or "causal" (P::mask).
template <class P>
Field<P> mask_field() {
  return {"mask",
          [](const nlohmann::json& v, P* p) {
            if (!v.is_string() || !parse_mask_name(v.get<std::string>(), &p->mask))
              return Status::Error("mask must be \"none\", \"padding\" or \"causal\", got {0}", {quote_json(v)});
            return Status::Ok();
          },
          [](const P& p, nlohmann::json& doc) { doc["mask"] = mask_name(p.mask); }, UrlKind::String};
}

template <class P>
using FieldTable = std::vector<Field<P>>;

// The table's fields (not those the scene reads itself), into the document.
template <class P>
void write_fields(const FieldTable<P>& fields, const P& p, nlohmann::json& doc) {
  for (const auto& f : fields)
    if (!f.scene_reads) f.write(p, doc);
}

// One by_scene field, by its name, with the table's reader and limits: read when `in` has it (a name the
// table lacks is the scene's own mistake, reported as an error, never a crash), or written.
template <class P>
Status read_field(const nlohmann::json& in, const FieldTable<P>& fields, const char* name, P* p) {
  for (const auto& f : fields)
    if (std::string(f.name) == name) {
      const auto it = in.find(name);
      return it == in.end() ? Status::Ok() : f.read(*it, p);
    }
  return Status::Error("internal: no field '{0}' in the scene's table", {name});
}
template <class P>
void write_field(const FieldTable<P>& fields, const char* name, const P& p, nlohmann::json& doc) {
  for (const auto& f : fields)
    if (std::string(f.name) == name) f.write(p, doc);
}

// Each of the table's fields present in `in` (not those the scene reads itself), validated and stored in
// table order.
template <class P>
Status read_table_fields(const nlohmann::json& in, const FieldTable<P>& fields, P* p) {
  for (const auto& f : fields)
    if (const auto it = in.find(f.name); it != in.end() && !f.scene_reads) AP_TRY(f.read(*it, p));
  return Status::Ok();
}

// The table's URL parameters, in table order (a scene keeps the list: url_params returns a reference).
template <class P>
std::vector<UrlParam> url_params_of(const FieldTable<P>& fields) {
  std::vector<UrlParam> v;
  for (const auto& f : fields)
    if (f.in_url) v.push_back({f.name, f.url ? f.url : f.name, f.url_kind});
  return v;
}

// An error naming the first field of `doc` that is neither in the table, nor "preset", nor among `extra`.
template <class P>
Status check_table_fields(const nlohmann::json& doc, const FieldTable<P>& fields, std::initializer_list<const char*> extra) {
  std::vector<const char*> known = {"preset"};
  for (const auto& f : fields) known.push_back(f.name);
  known.insert(known.end(), extra.begin(), extra.end());
  return check_known_fields(doc, known);
}

// The start of every scene's prepare():
//   1. `in` must be an object whose fields are the table's, "preset" and `extra` ("results" …);
//   2. the change starts from the preset it names (whatever the key order) or from `*p` (the current view);
//   3. each field present is validated and stored, in table order.
template <class P>
Status read_fields(const nlohmann::json& in, const FieldTable<P>& fields, const std::vector<ScenePreset<P>>& presets,
                   std::initializer_list<const char*> extra, P* p) {
  if (!in.is_object()) return Status::Error("expects an object, got {0}", {quote_json(in)});
  AP_TRY(check_table_fields(in, fields, extra));
  if (const auto it = in.find("preset"); it != in.end()) AP_TRY(find_preset_params(*it, presets, p));
  return read_table_fields(in, fields, p);
}

}  // namespace ap
