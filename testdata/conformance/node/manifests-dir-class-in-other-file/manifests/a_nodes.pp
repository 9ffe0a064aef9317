node default {
  include base
}
