class unused {
  notify { 'never': }
}
notify { 'only this': }
