$top = "t"
include m
