class profile {
  profile::site { 'main-site': }
}
