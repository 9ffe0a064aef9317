class tagged_class {
  tag 'extra', 'second'
  notify { 'inside': }
}
include tagged_class
notify { 'outside': }
