// An entry argument batched along axis 1: loom-shard splits axis 0 only.
func.func @main(%x: tensor<3x?xf32> {loom.batch_axis = 1 : i64, loom.name = "x"})
    -> (tensor<3x?xf32> {loom.name = "y"}) {
  return %x : tensor<3x?xf32>
}
