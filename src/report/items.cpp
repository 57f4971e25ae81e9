// Flattening a run into Items (report.hpp).
#include "tirx_verify/report/report.hpp"

namespace tirx::report {

std::vector<Item> collect_items(const std::vector<kernel::KernelReport>& ks) {
  std::vector<Item> out;
  for (const auto& k : ks) {
    for (const auto& b : k.buffers) {
      if (b.error) {
        Item it;
        it.model = k.model;
        it.subject_kind = "buffer";
        it.subject = b.buffer->name;
        it.check = b.error->check_id();
        it.status = prove::Status::kFail;
        it.input_error = true;
        it.message = b.error->message();
        it.fix = b.error->note();
        it.position = b.buffer->position;
        out.push_back(std::move(it));
        continue;
      }
      for (const auto& r : b.results) {
        Item it;
        it.model = k.model;
        it.subject_kind = "buffer";
        it.subject = b.buffer->name;
        it.check = r.id;
        it.status = r.status;
        it.severity = r.severity;
        it.message = r.message;
        it.engine = r.engine;
        it.witness = r.witness;
        it.position = b.buffer->position;
        it.seconds = r.seconds;
        out.push_back(std::move(it));
      }
    }
    for (const auto& f : k.findings) {
      Item it;
      it.model = k.model;
      it.subject_kind = f.subject_kind;
      it.subject = f.subject;
      it.check = f.check;
      it.status = f.status;
      it.severity = f.severity;
      it.message = f.message;
      it.fix = f.fix;
      it.witness = f.witness;
      it.related = f.related;
      it.seconds = f.seconds;
      if (f.subject_kind == "op") {
        if (const auto* op = k.model->find_op(f.subject)) it.position = op->position;
      } else if (f.subject_kind == "buffer") {
        if (const auto* bm = k.model->find_buffer(f.subject)) it.position = bm->position;
      }
      out.push_back(std::move(it));
    }
  }
  return out;
}

}  // namespace tirx::report
