$x = node a {}
