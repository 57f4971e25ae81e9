// notation.roundtrip — the printer and the parser are inverse to each other.
//
//   parse_layout(print_layout(L, builder)) == L and parse_layout(print_layout(L, tvm)) == L
//   (structural equality: same iters in the same order, same offsets, same swizzle), for random
//   TileLayouts over thread and memory axes, random ComposeLayouts and every factory's output;
//   and a factory call's text parses to exactly what the C++ factory builds.
#include <fmt/format.h>

#include "props_internal.hpp"
#include "tirx_verify/layout/error.hpp"
#include "tirx_verify/layout/notation.hpp"

namespace tirx::props {

namespace {

void roundtrip(const Layout& l) {
  for (const PrintStyle style : {PrintStyle::kBuilder, PrintStyle::kTvm}) {
    const std::string text = print_layout(l, style);
    const char* style_name = style == PrintStyle::kTvm ? "tvm" : "builder";
    const std::string repro = fmt::format("tirx-verify print {} --style {}", shell_quote(text), style_name);
    Layout back;
    try {
      back = parse_layout(text);
    } catch (const InputError& e) {
      fail(fmt::format("the {} form of {} does not parse:\n{}", style_name, layout_text(l), e.render()), repro);
    }
    if (!(back == l))
      fail(fmt::format("the {} form {} parses to {}, not to the printed layout {}", style_name, text,
                       layout_text(back), layout_text(l)),
           repro);
  }
}

// A factory call (one in three) or a random layout.
struct NotationCase {
  bool factory = false;
  FactoryCall call;
  Layout layout;
};

void showValue(const NotationCase& c, std::ostream& os) {
  if (c.factory)
    os << c.call.text();
  else
    os << layout_text(c.layout);
}

rc::Gen<NotationCase> gen_notation_case() {
  return rc::gen::exec([] {
    NotationCase c;
    c.factory = *rc::gen::inRange(0, 3) == 2;
    if (c.factory)
      c.call = *gen_factory_call();
    else
      c.layout = *gen_layout();
    return c;
  });
}

}  // namespace

Property notation_roundtrip_property() {
  return {"notation.roundtrip",
          "parse(print(L)) == L in builder and TVM form; factory text parses to the C++ factory's result", 300,
          [] {
            const NotationCase nc = *gen_notation_case();
            if (nc.factory) {
              const FactoryCall& call = nc.call;
              const Layout built = call.build();
              Layout parsed;
              const std::string repro = "tirx-verify print " + shell_quote(call.text());
              try {
                parsed = parse_layout(call.text());
              } catch (const InputError& e) {
                fail(fmt::format("{} does not parse:\n{}", call.text(), e.render()), repro);
              }
              if (!(parsed == built))
                fail(fmt::format("{} parses to {} but the factory builds {}", call.text(), layout_text(parsed),
                                 layout_text(built)),
                     repro);
              roundtrip(built);
            } else {
              roundtrip(nc.layout);
            }
          }};
}

}  // namespace tirx::props
