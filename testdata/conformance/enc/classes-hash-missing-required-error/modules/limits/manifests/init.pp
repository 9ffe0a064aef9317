class limits (Integer $max_files, Float $ratio) {
  notify { "max_files=${max_files}": }
}
