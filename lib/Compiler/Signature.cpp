//===- Signature.cpp - What the entry takes and returns -------------------===//
//
// Part of the Loom project.
//
//===----------------------------------------------------------------------===//
//
// The entry's signature is read from the module twice: before lowering erases
// names, defaults and ranges (describeEntry), and after loom-shard, which
// decides whether it runs on a mesh and which of its values are split
// (describeMesh).
//
//===----------------------------------------------------------------------===//

#include "Signature.h"

#include "loom/Dialect/Loom/IR/LoomDialect.h"
#include "loom/Dialect/Loom/IR/LoomOps.h"
#include "loom/Dialect/Loom/Utils/ShardUtils.h"

#include "mlir/Dialect/Bufferization/IR/Bufferization.h"

using namespace loom;
using namespace loom::detail;

namespace {

Result<ValueInfo> describe(mlir::Type type, std::string name, const char *what,
                           size_t index) {
  ValueInfo info;
  info.name = std::move(name);
  mlir::Type elem = type;
  if (auto tensor = llvm::dyn_cast<mlir::RankedTensorType>(type)) {
    // The call ABI tells a scalar from a tensor by its rank; a 0-d tensor
    // would be passed as the scalar it holds and read as a descriptor.
    if (tensor.getRank() == 0) {
      std::string s;
      llvm::raw_string_ostream os(s);
      os << what << " #" << index << " has type " << type
         << ": entry functions take and return scalars and tensors of rank 1 "
            "or more (use "
         << tensor.getElementType() << " or tensor<1x"
         << tensor.getElementType() << ">)";
      return Status::error(s);
    }
    elem = tensor.getElementType();
    for (int64_t d : tensor.getShape())
      info.shape.push_back(mlir::ShapedType::isDynamic(d) ? -1 : d);
  } else if (!type.isIntOrFloat()) {
    std::string s;
    llvm::raw_string_ostream os(s);
    os << what << " #" << index << " has type " << type
       << ": entry functions take and return scalars and ranked tensors";
    return Status::error(s);
  }
  if (elem.isF32())
    info.dtype = DType::F32;
  else if (elem.isF64())
    info.dtype = DType::F64;
  else if (elem.isSignlessInteger(32))
    info.dtype = DType::I32;
  else if (elem.isSignlessInteger(64))
    info.dtype = DType::I64;
  else if (elem.isSignlessInteger(1))
    info.dtype = DType::I1;
  else {
    std::string s;
    llvm::raw_string_ostream os(s);
    os << what << " #" << index << " has element type " << elem
       << ": entry functions use f32, f64, i32, i64 and i1";
    return Status::error(s);
  }
  return info;
}

} // namespace

namespace loom::detail {

Status describeEntry(mlir::func::FuncOp func, Executable::Impl &impl) {
  using mlir::loom::LoomDialect;
  mlir::FunctionType type = func.getFunctionType();
  for (unsigned i = 0; i < type.getNumInputs(); ++i) {
    auto name =
        func.getArgAttrOfType<mlir::StringAttr>(i, LoomDialect::kNameAttrName);
    auto info =
        describe(type.getInput(i),
                 name ? name.str() : "arg" + std::to_string(i), "argument", i);
    if (!info)
      return Status::error("@" + func.getSymName().str() + ": " +
                           info.message());
    if (auto def = func.getArgAttr(i, LoomDialect::kDefaultAttrName)) {
      if (auto f = llvm::dyn_cast<mlir::FloatAttr>(def))
        info->defaultValue = f.getValueAsDouble();
      else if (auto n = llvm::dyn_cast<mlir::IntegerAttr>(def))
        info->defaultValue = static_cast<double>(n.getValue().getSExtValue());
    }
    // The dialect verified it: two integers that fit the argument's type.
    if (auto range = func.getArgAttrOfType<mlir::ArrayAttr>(
            i, LoomDialect::kRangeAttrName)) {
      auto bound = [&](unsigned k) {
        return llvm::cast<mlir::IntegerAttr>(range[k])
            .getValue()
            .getSExtValue();
      };
      info->range = {bound(0), bound(1)};
    }
    impl.inputs.push_back(info.take());
    if (llvm::isa<mlir::TensorType>(type.getInput(i)))
      func.setArgAttr(
          i, mlir::bufferization::BufferizationDialect::kWritableAttrName,
          mlir::BoolAttr::get(func.getContext(), false));
  }
  for (unsigned i = 0; i < type.getNumResults(); ++i) {
    auto name = func.getResultAttrOfType<mlir::StringAttr>(
        i, LoomDialect::kNameAttrName);
    auto info =
        describe(type.getResult(i),
                 name ? name.str() : "result" + std::to_string(i), "result", i);
    if (!info)
      return Status::error("@" + func.getSymName().str() + ": " +
                           info.message());
    impl.outputs.push_back(info.take());
  }
  // Operands that one loom.vmap batches together must agree on the batch.
  func.walk([&](mlir::loom::VmapOp vmap) {
    std::vector<std::pair<size_t, size_t>> group;
    for (auto [operand, axis] : llvm::zip(vmap.getInputs(), vmap.getInAxes())) {
      auto arg = llvm::dyn_cast<mlir::BlockArgument>(operand);
      if (axis == mlir::loom::VmapOp::kNotBatched || !arg ||
          arg.getOwner() != &func.getBody().front())
        continue;
      group.emplace_back(arg.getArgNumber(), axis);
    }
    if (group.size() > 1)
      impl.batchGroups.push_back(std::move(group));
  });
  return Status::success();
}

Status describeMesh(mlir::ModuleOp module, const std::string &name,
                    Executable::Impl &impl, const TargetBackend &backend) {
  auto entry = module.lookupSymbol<mlir::func::FuncOp>(name);
  using mlir::loom::LoomDialect;
  unsigned n = entry.getNumArguments();
  // loom-shard appends the context: the arguments before it are the inputs.
  if (!mlir::loom::getShardContext(entry))
    return Status::success();
  auto mesh = backend.createMesh(mlir::loom::getNumShards(module));
  if (!mesh)
    return mesh.status();
  impl.mesh = mesh.take();
  for (unsigned i = 0; i + 1 < n; ++i)
    impl.inputSplit.push_back(static_cast<bool>(
        entry.getArgAttr(i, LoomDialect::kBatchAxisAttrName)));
  for (unsigned i = 0; i < entry.getNumResults(); ++i)
    impl.outputSplit.push_back(static_cast<bool>(
        entry.getResultAttr(i, LoomDialect::kBatchAxisAttrName)));
  if (auto table =
          module->getAttrOfType<mlir::ArrayAttr>(LoomDialect::kLoopsAttrName))
    for (auto loop : table.getAsRange<mlir::DictionaryAttr>()) {
      auto lanes = loop.getAs<mlir::IntegerAttr>("lanes");
      auto variant = loop.getAs<mlir::StringAttr>("variant");
      impl.loops.push_back({loop.getAs<mlir::StringAttr>("loc").str(),
                            loop.getAs<mlir::BoolAttr>("masked").getValue(),
                            lanes ? lanes.getInt() : 0,
                            variant ? variant.str() : ""});
    }
  return Status::success();
}

void describeVariants(mlir::ModuleOp module, Executable::Impl &impl) {
  using mlir::loom::LoomDialect;
  impl.variants.clear();
  if (auto table = module->getAttrOfType<mlir::ArrayAttr>(
          LoomDialect::kVariantsAttrName))
    for (auto site : table.getAsRange<mlir::DictionaryAttr>())
      impl.variants.push_back(
          {site.getAs<mlir::StringAttr>("loc").str(),
           site.getAs<mlir::StringAttr>("primary").str(),
           site.getAs<mlir::StringAttr>("alternative").str()});
}

} // namespace loom::detail
