include common
node default {
  include common
}
