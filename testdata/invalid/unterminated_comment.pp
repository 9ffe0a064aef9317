$x = 1
/* this comment
never ends
